func.func @f(%a: tensor<1000x200xf16>) {
  return
}

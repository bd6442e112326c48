//===- QuantBindings.cpp - spyre.quantize / spyre.dequantize --------------===//
//
// The TensorCast tensor (Spyre/Quant/Quant.h) from Python. The Python side
// (spyre/__init__.py) wraps the dictionaries these return in a
// QuantizedTensor.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Quant/Quant.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <string>

namespace py = pybind11;
using namespace mlir::spyre::quant;

namespace {

[[noreturn]] void raise(llvm::Error error) {
  throw py::value_error(llvm::toString(std::move(error)));
}

template <typename T> T unwrapOrRaise(llvm::Expected<T> value) {
  if (!value)
    raise(value.takeError());
  return std::move(*value);
}

struct SpecArgs {
  std::string dtype;
  std::optional<std::string> scale;
  std::string mode;
  int64_t axis, tile, axis2, tile2;
  std::optional<std::string> scaleDtype;
  bool multiscale, zeroPoint;
  std::optional<std::string> zeroDtype;
  std::optional<int> sparsity;
  int64_t subtile = 0;
  std::optional<std::vector<double>> mappings;
  bool saturate = true;
};

/// A codebook dtype ("cb..."): its codebook and compute format; a generic
/// one gets `mappings`, an implicit one must not.
std::pair<Codebook, Format>
codebookOf(const std::string &dtype,
           const std::optional<std::vector<double>> &mappings) {
  auto parsed = parseCodebook(dtype);
  if (!parsed)
    raise(parsed.takeError());
  auto [book, compute] = *parsed;
  if (mappings) {
    if (!book.mappings.empty())
      throw py::value_error("codebook '" + dtype +
                            "' is implicit (its desc builds the mappings): "
                            "give codebook= for generic codebooks only");
    if (llvm::Error e = setMappings(book, compute, *mappings))
      raise(std::move(e));
  }
  return {book, compute};
}

QuantSpec toSpec(const SpecArgs &a) {
  QuantSpec spec;
  if (llvm::StringRef(a.dtype).starts_with_insensitive("cb")) {
    auto [book, compute] = codebookOf(a.dtype, a.mappings);
    spec.codebook = std::move(book);
    spec.format = compute;
  } else {
    std::optional<Format> format = parseFormat(a.dtype);
    if (!format || getFormatInfo(*format).kind == FormatKind::Exponent)
      throw py::value_error("unknown quantized dtype '" + a.dtype +
                            "' (one of " + formatNames() +
                            " but e8m0, or a codebook cb...)");
    if (a.mappings)
      throw py::value_error("codebook= is for codebook dtypes (cb...)");
    spec.format = *format;
  }
  spec.subtile = a.subtile;
  spec.saturate = a.saturate;
  std::string scale = a.scale.value_or("none");
  std::optional<Scaling> scaling = parseScaling(scale);
  if (!scaling)
    throw py::value_error("unknown scale '" + scale +
                          "' (mx, tensor, channel, tile, matrix or None)");
  spec.scaling = *scaling;
  std::optional<CastMode> mode = parseCastMode(a.mode);
  if (!mode)
    throw py::value_error("unknown mode '" + a.mode +
                          "' (virtual, actual or compressed)");
  spec.mode = *mode;
  spec.axis = a.axis;
  spec.tile = a.tile;
  spec.axis2 = a.axis2;
  spec.tile2 = a.tile2;
  if (a.scaleDtype) {
    std::optional<ScaleType> type = parseScaleType(*a.scaleDtype);
    if (!type)
      throw py::value_error("unknown scale_dtype '" + *a.scaleDtype +
                            "' (float32, float16, bfloat16, float8_e4m3fn, "
                            "float8_e8m0fnu)");
    spec.scaleType = *type;
  }
  spec.multiscale = a.multiscale;
  spec.zeroPoint = a.zeroPoint;
  if (a.zeroDtype) {
    std::optional<ScaleType> type = parseScaleType(*a.zeroDtype);
    if (!type || (*type != ScaleType::Float32 && *type != ScaleType::Float16 &&
                  *type != ScaleType::BFloat16))
      throw py::value_error("zero_point is True, False or a float dtype "
                            "(float32, float16, bfloat16), not '" +
                            *a.zeroDtype + "'");
    spec.zeroType = *type;
  }
  if (a.sparsity) {
    if (*a.sparsity < 0)
      throw py::value_error("sparsity is 25 or 50 percent");
    spec.sparsityPercent = static_cast<unsigned>(*a.sparsity);
  }
  return spec;
}

py::tuple shapeTuple(llvm::ArrayRef<int64_t> shape) {
  py::tuple t(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    t[i] = shape[i];
  return t;
}

py::array toArray(const Buffer &b) {
  py::dtype dtype(b.storage);
  std::vector<py::ssize_t> shape(b.shape.begin(), b.shape.end());
  py::array array(dtype, shape);
  if (static_cast<size_t>(array.nbytes()) != b.bytes.size())
    throw py::value_error("internal error: buffer size mismatch");
  if (!b.bytes.empty())
    std::memcpy(array.mutable_data(), b.bytes.data(), b.bytes.size());
  return array;
}

py::object toArrayOrNone(const std::optional<Buffer> &b) {
  return b ? py::object(toArray(*b)) : py::object(py::none());
}

/// Reads an array given back by the user as the buffer a companion's
/// shapes say (numpy converts nothing: dtype and shape must match).
std::optional<Buffer> fromArray(py::object object, const Companion &c,
                                bool compressed, llvm::StringRef name) {
  if (!c.present) {
    if (!object.is_none())
      throw py::value_error(name.str() + " given for a tensor without one");
    return std::nullopt;
  }
  if (object.is_none())
    throw py::value_error("the " + name.str() + " tensor is missing");
  Buffer b;
  b.shape = compressed ? c.compressedShape : c.shape;
  b.dtype = compressed ? c.compressedDtype : c.dtype;
  b.storage = storageDtype(b.dtype).str();
  py::array array = py::array::ensure(object);
  if (!array)
    throw py::value_error(name.str() + " must be a numpy array");
  if (!array.dtype().is(py::dtype(b.storage)))
    throw py::value_error(name.str() + " must hold " + b.storage + " (" +
                          b.dtype + "), not " +
                          py::str(array.dtype()).cast<std::string>());
  std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
  if (llvm::ArrayRef<int64_t>(shape) != llvm::ArrayRef<int64_t>(b.shape))
    throw py::value_error(name.str() + " has shape " +
                          py::str(py::cast(shape)).cast<std::string>() +
                          ", expected " +
                          py::str(shapeTuple(b.shape)).cast<std::string>());
  py::array contiguous =
      py::array::ensure(array, py::array::c_style | py::array::forcecast);
  const auto *p = static_cast<const uint8_t *>(contiguous.data());
  b.bytes.assign(p, p + contiguous.nbytes());
  return b;
}

py::dict companionDict(const Companion &c) {
  py::dict d;
  d["shape"] = shapeTuple(c.shape);
  d["dtype"] = c.dtype;
  d["compressed_shape"] = shapeTuple(c.compressedShape);
  d["compressed_dtype"] = c.compressedDtype;
  return d;
}

py::dict shapesDict(const QuantShapes &s) {
  py::dict shapes;
  for (auto [name, c] : s.companions())
    shapes[py::str(name.str())] =
        c->present ? py::object(companionDict(*c)) : py::object(py::none());
  return shapes;
}

SpecArgs argsFrom(py::kwargs kwargs) {
  SpecArgs a;
  a.dtype = kwargs["dtype"].cast<std::string>();
  a.scale = kwargs["scale"].cast<std::optional<std::string>>();
  a.mode = kwargs["mode"].cast<std::string>();
  a.axis = kwargs["axis"].cast<int64_t>();
  a.tile = kwargs["tile"].cast<int64_t>();
  a.axis2 = kwargs["axis2"].cast<int64_t>();
  a.tile2 = kwargs["tile2"].cast<int64_t>();
  a.scaleDtype = kwargs["scale_dtype"].cast<std::optional<std::string>>();
  a.multiscale = kwargs["multiscale"].cast<bool>();
  py::object zeroPoint = kwargs["zero_point"];
  if (py::isinstance<py::str>(zeroPoint)) {
    a.zeroPoint = true;
    a.zeroDtype = zeroPoint.cast<std::string>();
  } else {
    a.zeroPoint = zeroPoint.cast<bool>();
  }
  a.sparsity = kwargs["sparsity"].cast<std::optional<int>>();
  a.subtile = kwargs["subtile"].cast<int64_t>();
  a.mappings = kwargs["codebook"].cast<std::optional<std::vector<double>>>();
  if (kwargs.contains("saturate"))
    a.saturate = kwargs["saturate"].cast<bool>();
  return a;
}

} // namespace

void bindQuant(py::module_ &m) {
  m.def(
      "_quant_shapes",
      [](std::vector<int64_t> shape, int64_t stickBytes, py::kwargs kwargs) {
        QuantShapes s =
            unwrapOrRaise(computeShapes(shape, toSpec(argsFrom(kwargs))));
        py::dict out = shapesDict(s);
        out["bits_per_value"] = s.bitsPerValue;
        out["compressed_bytes"] = s.compressedBytes;
        out["tile_shape"] = shapeTuple(s.tileShape);
        llvm::Expected<StickFit> fit = fitOnSticks(s, stickBytes);
        if (fit) {
          py::dict sticks;
          sticks["values_per_stick"] = fit->valuesPerStick;
          sticks["scales_per_stick"] = fit->scalesPerStick;
          out["sticks"] = sticks;
        } else {
          out["sticks"] = llvm::toString(fit.takeError());
        }
        return out;
      },
      py::arg("shape"), py::arg("stick_bytes"));
  m.def(
      "_quantize",
      [](py::array_t<float, py::array::c_style | py::array::forcecast> values,
         py::kwargs kwargs) {
        std::vector<int64_t> shape(values.shape(),
                                   values.shape() + values.ndim());
        llvm::ArrayRef<float> data(values.data(), values.size());
        QuantSpec spec = toSpec(argsFrom(kwargs));
        // Scales the caller gives (`scales=`), checked like dequantize's.
        std::optional<GivenScales> given;
        if (kwargs.contains("given") && !kwargs["given"].is_none()) {
          py::dict parts = kwargs["given"].cast<py::dict>();
          QuantShapes s = unwrapOrRaise(computeShapes(shape, spec));
          bool compressed = s.spec.mode == CastMode::Compressed;
          auto part = [&](const char *name) -> py::object {
            return parts.contains(name) ? py::object(parts[name])
                                        : py::object(py::none());
          };
          for (auto item : parts) {
            std::string name = item.first.cast<std::string>();
            if (!GivenScales::holds(name))
              throw py::value_error("scales gives '" + name +
                                    "'; it may give scale, zero and "
                                    "tenscale");
          }
          given = GivenScales{
              fromArray(part("scale"), s.scale, compressed, "scale"),
              fromArray(part("zero"), s.zero, compressed, "zero"),
              fromArray(part("tenscale"), s.tenscale, compressed, "tenscale")};
        }
        QuantizedTensor q = unwrapOrRaise(
            quantize(data, shape, spec, given ? &*given : nullptr));
        py::dict out;
        out["data"] = toArray(q.data);
        out["scale"] = toArrayOrNone(q.scale);
        out["zero"] = toArrayOrNone(q.zero);
        out["tenscale"] = toArrayOrNone(q.tenscale);
        out["meta"] = toArrayOrNone(q.meta);
        out["mask"] = toArrayOrNone(q.mask);
        out["shapes"] = shapesDict(q.shapes);
        out["bits_per_value"] = q.shapes.bitsPerValue;
        return out;
      });
  m.def(
      "_codebook",
      [](std::string code, std::optional<std::vector<double>> mappings) {
        auto [book, compute] = codebookOf(code, mappings);
        py::dict out;
        out["index_bits"] = book.indexBits;
        out["meta_bits"] = book.metaBits;
        out["compute"] = getFormatInfo(compute).name.str();
        out["mappings"] = book.mappings;
        return out;
      },
      py::arg("code"), py::arg("mappings") = py::none());
  m.def("_dequantize", [](std::vector<int64_t> shape, py::object data,
                          py::object scale, py::object zero,
                          py::object tenscale, py::object meta, py::object mask,
                          py::kwargs kwargs) {
    QuantizedTensor q;
    q.shapes = unwrapOrRaise(computeShapes(shape, toSpec(argsFrom(kwargs))));
    q.shape.assign(shape.begin(), shape.end());
    const QuantShapes &s = q.shapes;
    bool compressed = s.spec.mode == CastMode::Compressed;
    // (In virtual mode the data's dtype is the float32 of its values.)
    q.data = *fromArray(data, s.data, compressed, "data");
    q.scale = fromArray(scale, s.scale, compressed, "scale");
    q.zero = fromArray(zero, s.zero, compressed, "zero");
    q.tenscale = fromArray(tenscale, s.tenscale, compressed, "tenscale");
    q.meta = fromArray(meta, s.meta, compressed, "meta");
    q.mask = fromArray(mask, s.mask, compressed, "mask");
    std::vector<float> values = unwrapOrRaise(dequantize(q));
    py::array_t<float> out(
        std::vector<py::ssize_t>(shape.begin(), shape.end()));
    if (!values.empty())
      std::memcpy(out.mutable_data(), values.data(), 4 * values.size());
    return out;
  });
}

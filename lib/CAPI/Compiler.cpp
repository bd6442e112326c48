// libSpyreCompiler.so is the project's static libraries linked whole; see
// CMakeLists.txt.

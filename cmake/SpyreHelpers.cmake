# spyre_add_library(<name> <sources...>
#                   [DEPENDS <targets...>] [LINK_LIBS <libs...>] [MLIR])
#
# A static library of the project, installed and exported as Spyre::<name>.
# With MLIR, the library links libMLIR.so (never the static MLIR archives, so a
# process holds exactly one copy of MLIR's global registries).
function(spyre_add_library name)
  cmake_parse_arguments(ARG "MLIR" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  add_library(Spyre::${name} ALIAS ${name})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_include_directories(${name} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  if(ARG_MLIR)
    target_link_libraries(${name} PUBLIC MLIR)
  endif()
  target_link_libraries(${name} PUBLIC LLVM)
  if(SPYRE_SANITIZER_LINK_OPTIONS)
    target_link_options(${name} INTERFACE ${SPYRE_SANITIZER_LINK_OPTIONS})
  endif()
  install(TARGETS ${name} EXPORT SpyreTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# spyre_add_tool(<name> <sources...> [LINK_LIBS <libs...>])
function(spyre_add_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} MLIR LLVM)
  set_target_properties(${name} PROPERTIES
    INSTALL_RPATH "${LLVM_LIBRARY_DIR};$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  install(TARGETS ${name} EXPORT SpyreTargets
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

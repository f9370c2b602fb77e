# Installs headers, libGraphOpt.so and libGraphOptCompiler.so, the tools and a
# CMake package so that other projects can `find_package(GraphOpt CONFIG)`
# and link GraphOpt::GraphOpt (everything) or GraphOpt::GraphOptCompiler (the
# compiler layer alone: dialects, passes, pipelines; no JIT).
include(CMakePackageConfigHelpers)

# The ODS (.td) and PDLL files too: run-time .pdll rules include them.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/graphopt
        DESTINATION include FILES_MATCHING
        PATTERN "*.h" PATTERN "*.td" PATTERN "*.pdll")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/graphopt-c
        DESTINATION include FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/graphopt
        DESTINATION include FILES_MATCHING PATTERN "*.inc")
install(TARGETS GraphOpt GraphOptCompiler EXPORT GraphOptTargets
        LIBRARY DESTINATION lib
        INCLUDES DESTINATION include)
install(EXPORT GraphOptTargets NAMESPACE GraphOpt::
        DESTINATION lib/cmake/GraphOpt)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/lib/cmake/GraphOptConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/GraphOpt/GraphOptConfig.cmake
  INSTALL_DESTINATION lib/cmake/GraphOpt)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/GraphOpt/GraphOptConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/lib/cmake/GraphOpt/GraphOptConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/GraphOpt/GraphOptConfigVersion.cmake
  DESTINATION lib/cmake/GraphOpt)

include(CMakePackageConfigHelpers)
install(EXPORT llcTargets NAMESPACE llc:: DESTINATION lib/cmake/llc)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/llcConfig.cmake.in ${PROJECT_BINARY_DIR}/llcConfig.cmake
    INSTALL_DESTINATION lib/cmake/llc)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/llcConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/llcConfig.cmake ${PROJECT_BINARY_DIR}/llcConfigVersion.cmake
    DESTINATION lib/cmake/llc)

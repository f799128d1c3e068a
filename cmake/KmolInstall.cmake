# Installs kmol as a CMake package: find_package(kmol) then link kmol::kmol.
include(CMakePackageConfigHelpers)

add_library(kmol_all INTERFACE)
set_target_properties(kmol_all PROPERTIES EXPORT_NAME kmol)
target_link_libraries(kmol_all INTERFACE kmol_kernels kmol_core)
add_library(kmol::kmol ALIAS kmol_all)
install(TARGETS kmol_all EXPORT kmolTargets)

set(kmol_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/kmol)
install(EXPORT kmolTargets NAMESPACE kmol:: DESTINATION ${kmol_cmake_dir})
configure_package_config_file(cmake/kmolConfig.cmake.in ${PROJECT_BINARY_DIR}/kmolConfig.cmake
  INSTALL_DESTINATION ${kmol_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kmolConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kmolConfig.cmake ${PROJECT_BINARY_DIR}/kmolConfigVersion.cmake
        DESTINATION ${kmol_cmake_dir})

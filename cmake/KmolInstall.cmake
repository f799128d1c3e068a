# Installs kmol as a CMake package: find_package(kmol) then link kmol::kmol, and include
# <kmol/kmol.hpp> (or one algorithm's <kmol/pair_histogram.hpp>, ...) from <prefix>/include.
include(CMakePackageConfigHelpers)

add_library(kmol_all INTERFACE)
set_target_properties(kmol_all PROPERTIES EXPORT_NAME kmol)
target_link_libraries(kmol_all INTERFACE kmol_kernels kmol_core)
target_include_directories(kmol_all INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
add_library(kmol::kmol ALIAS kmol_all)
install(TARGETS kmol_all EXPORT kmolTargets)
install(DIRECTORY include/kmol DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")

# Headers include each other from the repository's root ("kernels/..."); installed, the only root
# is <prefix>/include, where they sit under kmol/, so their includes are rewritten to match.
install(CODE "set(kmol_include_dir \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_INCLUDEDIR}\")")
install(SCRIPT cmake/KmolRootIncludes.cmake)

set(kmol_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/kmol)
install(EXPORT kmolTargets NAMESPACE kmol:: DESTINATION ${kmol_cmake_dir})
configure_package_config_file(cmake/kmolConfig.cmake.in ${PROJECT_BINARY_DIR}/kmolConfig.cmake
  INSTALL_DESTINATION ${kmol_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kmolConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kmolConfig.cmake ${PROJECT_BINARY_DIR}/kmolConfigVersion.cmake
        DESTINATION ${kmol_cmake_dir})

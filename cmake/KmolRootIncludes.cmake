# Install step: every installed header's "kernels/..." include becomes "kmol/kernels/...", the
# path under <prefix>/include where kernels/CMakeLists.txt installs those headers.
file(GLOB_RECURSE kmol_headers "$ENV{DESTDIR}${kmol_include_dir}/kmol/*.hpp")
foreach(header IN LISTS kmol_headers)
  file(READ "${header}" text)
  string(REPLACE "#include \"kernels/" "#include \"kmol/kernels/" rooted "${text}")
  if(NOT rooted STREQUAL text)
    file(WRITE "${header}" "${rooted}")
  endif()
endforeach()

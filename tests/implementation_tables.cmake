cmake_minimum_required(VERSION 3.18)  # IN_LIST, file(CONFIGURE), in script mode too
# cmake -DSOURCE=<kmol source> -DWORK=<scratch folder> -P implementation_tables.cmake
# Adding an implementation touches its folder and one table row: on a copy of the pair-histogram
# algorithm, a new folder with its runner and a new row are enough for the enumerator, both runner
# lists and the build's sources; a folder without a runner, a runner without a row and a row
# without a runner are refused. Every algorithm of the tree passes the same checks.
include(${SOURCE}/cmake/KmolImplementations.cmake)

if(DEFINED ALGORITHM)  # one generation, run as a child so that its FATAL_ERROR can be expected
  kmol_implementation_table(${ROOT} ${ROOT}/out ${ALGORITHM} ${ENUMERATION} found)
  return()
endif()

function(expect_match text regex what)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "expected ${what}:\n${text}")
  endif()
endfunction()

function(expect_no_match text regex what)
  if(text MATCHES "${regex}")
    message(FATAL_ERROR "expected ${what}:\n${text}")
  endif()
endfunction()

# Generates pair_histogram of `root` in a child; `error` empty when it succeeded.
function(generate root error)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE=${SOURCE} -DROOT=${root}
                          -DALGORITHM=pair_histogram -DENUMERATION=PairHistogramImpl
                          -P ${CMAKE_CURRENT_LIST_FILE}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0)
    set(err "")
  endif()
  set(${error} "${err}" PARENT_SCOPE)
endfunction()

# Every algorithm of the tree: each folder has a runner, each runner a row, each row a runner.
foreach(table IN ITEMS pair_histogram:PairHistogramImpl coulomb:CoulombImpl density:DensityImpl
                       orbital:OrbitalImpl md:MdForceImpl)
  string(REPLACE ":" ";" table ${table})
  kmol_implementation_table(${SOURCE} ${WORK}/tree ${table} tree)
endforeach()

# A new implementation: its folder (a Kokkos-free runner header and a source) and one row.
set(root ${WORK}/added)
file(REMOVE_RECURSE ${root})
file(COPY ${SOURCE}/kernels/pair_histogram DESTINATION ${root}/kernels)
set(dir ${root}/kernels/pair_histogram)
file(WRITE ${dir}/simd/pair_histogram_simd.hpp
     "template <>\nstruct PairHistogramRunner<PairHistogramImpl::simd> {};\n")
file(WRITE ${dir}/simd/pair_histogram_simd.cpp "")
file(READ ${dir}/implementations.hpp table)
string(REGEX REPLACE "}};" "},\n {PairHistogramImpl::simd, \"simd\", ImplementationKind::host, \
nullptr, 0, nullptr, \"\", \"\"}};" table "${table}")
file(WRITE ${dir}/implementations.hpp "${table}")
kmol_implementation_table(${root} ${root}/out pair_histogram PairHistogramImpl added)
set(out ${root}/out/kernels/pair_histogram)
file(READ ${out}/impl.hpp enumeration)
expect_match("${enumeration}" "cells, simd };" "simd as the last enumerator")
file(READ ${out}/runners.hpp runners)
expect_match("${runners}" "pair_histogram/simd/pair_histogram_simd.hpp" "simd in runners.hpp")
file(READ ${out}/platform_runners.hpp platform)
expect_match("${platform}" "pair_histogram/simd/pair_histogram_simd.hpp"
             "simd, Kokkos-free, in platform_runners.hpp")
expect_no_match("${platform}" "kokkos/pair_histogram_kokkos.hpp" "no Kokkos runner for the pool")
expect_match("${added_SOURCES}" "simd/pair_histogram_simd.cpp" "the folder's source in the build")
generate(${root} error)
expect_match("ok${error}" "^ok$" "the added implementation generated in a child too")

# A folder without a runner.
file(MAKE_DIRECTORY ${dir}/empty)
file(WRITE ${dir}/empty/helper.hpp "// no runner here\n")
generate(${root} error)
expect_match("${error}" "without a runner" "a folder without a runner refused")
file(REMOVE_RECURSE ${dir}/empty)

# A runner without a row.
file(WRITE ${dir}/simd/extra.hpp "template <>\nstruct PairHistogramRunner<PairHistogramImpl::avx> {};\n")
generate(${root} error)
expect_match("${error}" "has no row" "a runner without a row refused")
file(REMOVE ${dir}/simd/extra.hpp)

# A row without a runner.
file(REMOVE_RECURSE ${dir}/simd)
generate(${root} error)
expect_match("${error}" "has no runner" "a row without a runner refused")
message(STATUS "implementation tables: folder and row suffice; strays refused")

# SPDX-License-Identifier: GPL-3.0-or-later
# The git revision for --version: one custom target regenerates BuildInfo.h on every build (cmake -P
# WriteBuildInfo.cmake); rdtscope_build_info(TARGET) lets a program include "BuildInfo.h".
set(RDTSCOPE_GIT_REVISION "" CACHE STRING "Revision --version prints; empty = git describe of the source tree")
set(RDTSCOPE_BUILD_INFO_DIR ${CMAKE_BINARY_DIR}/generated)
add_custom_target(rdtscope_build_info
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DOUT=${RDTSCOPE_BUILD_INFO_DIR}/BuildInfo.h
          "-DREVISION=${RDTSCOPE_GIT_REVISION}" -P ${CMAKE_CURRENT_LIST_DIR}/WriteBuildInfo.cmake
  BYPRODUCTS ${RDTSCOPE_BUILD_INFO_DIR}/BuildInfo.h
  COMMENT "Git revision for --version"
  VERBATIM)

function(rdtscope_build_info target)
  add_dependencies(${target} rdtscope_build_info)
  target_include_directories(${target} PRIVATE ${RDTSCOPE_BUILD_INFO_DIR})
endfunction()

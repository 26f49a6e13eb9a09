# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a tracked .cpp/.h file under ROOT differs from what clang-format (with ROOT/.clang-format) would write.
execute_process(COMMAND ${GIT} -C ${ROOT} ls-files "*.cpp" "*.h" OUTPUT_VARIABLE files OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE git_rc)
if(NOT git_rc EQUAL 0 OR files STREQUAL "")
  message(STATUS "not a git checkout: formatting not checked")
  return()
endif()
string(REPLACE "\n" ";" files "${files}")
list(TRANSFORM files PREPEND "${ROOT}/")
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${files} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  string(SUBSTRING "${err}" 0 3000 err)
  message(FATAL_ERROR "sources differ from .clang-format; run ./dev format\n${err}")
endif()
list(LENGTH files n)
message(STATUS "${n} files match .clang-format")

# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a CLI command and checks its exit code and output (ctest's PASS_REGULAR_EXPRESSION ignores the exit code).
# -DCMD=<binary> -DARGS=<;-list> -DEXPECT_RC=<n> [-DREGEX=<regex matched against stdout+stderr>]
execute_process(COMMAND ${CMD} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECT_RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED REGEX AND NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
message(STATUS "${out}")

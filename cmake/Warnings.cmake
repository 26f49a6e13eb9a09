# SPDX-License-Identifier: GPL-3.0-or-later
# Warnings as a named list applied per target (fmtlib style); -Werror only when RDTSCOPE_WERROR is on.
set(RDTSCOPE_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor
    -Wold-style-cast -Woverloaded-virtual)
function(rdtscope_warnings target)
  target_compile_options(${target} PRIVATE ${RDTSCOPE_WARNINGS})
  if(RDTSCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Qt hardening defines, as in KDAB/hotspot.
function(rdtscope_qt_defines target)
  target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_USE_QSTRINGBUILDER
                                               QT_NO_FOREACH QT_NO_KEYWORDS)
endfunction()

# SPDX-License-Identifier: GPL-3.0-or-later
# Proves that CheckCitations.cmake can fail: it runs the check on small temporary trees, one per kind of bad
# citation, and requires a failure that names the file and line; a tree whose citations all resolve must pass.
# Usage: cmake -DCHECK=.../CheckCitations.cmake -DWORK=DIR -P CheckCitationsSelfTest.cmake
if(NOT CHECK OR NOT WORK)
  message(FATAL_ERROR "CHECK and WORK must be set")
endif()


# make_tree(NAME CONTENT): WORK/NAME holds docs/GUIDE.md (one heading "The seams") and capture/probe.h.
function(make_tree name content)
  set(dir ${WORK}/${name})
  file(REMOVE_RECURSE ${dir})
  file(WRITE ${dir}/docs/GUIDE.md "# Guide\n\n## The seams\n\nText.\n")
  file(WRITE ${dir}/capture/probe.h "// SPDX-License-Identifier: GPL-3.0-or-later\n#pragma once\n\n${content}\n")
endfunction()

function(run_check name out_rc out_text)
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${WORK}/${name} -P ${CHECK} RESULT_VARIABLE rc OUTPUT_VARIABLE o
                  ERROR_VARIABLE e)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${o}${e}" PARENT_SCOPE)
endfunction()

# expect_rejected(NAME CONTENT EXPECTED): the check fails and its message contains EXPECTED.
set(failures "")
function(expect_rejected name content expected)
  make_tree(${name} "${content}")
  run_check(${name} rc text)
  if(rc EQUAL 0)
    set(failures "${failures}\n${name}: the check passed a tree citing: ${content}" PARENT_SCOPE)
  else()
    string(FIND "${text}" "${expected}" at)
    if(at EQUAL -1)
      set(failures "${failures}\n${name}: failed without naming '${expected}':\n${text}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

# The outside names are assembled here so that this file itself cites nothing a clone lacks.
string(CONCAT notes_doc "PMU" "-NOTES.md")
string(CONCAT design_doc "DES" "IGN.md")
string(CONCAT shared_dir "../sha" "red/")
expect_rejected(notes "/// Encodings as in ${notes_doc} section 2." "capture/probe.h:4: cites 'PMU-")
expect_rejected(design "// The frame pump (${design_doc} \"Data flow\")." "capture/probe.h:4: cites 'DESIGN")
expect_rejected(shared "// see ${shared_dir}reference/intel-sdm.txt" "capture/probe.h:4: cites '${shared_dir}'")
expect_rejected(missing "// schema in docs/MISSING.md" "capture/probe.h:4: cites docs/MISSING.md, which does not exist")
expect_rejected(moved "// schema in capture/session/OLD.md" "cites capture/session/OLD.md, which does not exist")
expect_rejected(section "/// (docs/GUIDE.md \"Data flow\")" "section \"Data flow\" of docs/GUIDE.md, which has no such")

# The control: citations that resolve pass, so the rejections above are about the citations.
make_tree(good "/// The Fs seam (docs/GUIDE.md \"The seams\"; SDM 20.18.8; tools/perf/util/evsel.c; docs/GUIDE.md).")
run_check(good rc text)
if(NOT rc EQUAL 0)
  set(failures "${failures}\ngood: a tree whose citations resolve was rejected:\n${text}")
endif()

file(REMOVE_RECURSE ${WORK})
if(failures)
  message(FATAL_ERROR "CheckCitations.cmake does not behave:${failures}")
endif()
message(STATUS "CheckCitations.cmake rejects 6 kinds of bad citation and passes good ones")

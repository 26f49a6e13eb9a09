# SPDX-License-Identifier: GPL-3.0-or-later
# Link with mold when it is installed (./dev installs it): the test suite is ~90 programs, and mold links the GUI
# in 1.3 s where ld.bfd takes 4.5 s and 570 MB. A linker chosen on the command line (-fuse-ld=...) wins.
option(RDTSCOPE_MOLD "Link with mold when it is installed" ON)
if(RDTSCOPE_MOLD AND NOT CMAKE_EXE_LINKER_FLAGS MATCHES "fuse-ld=")
  find_program(RDTSCOPE_MOLD_PROGRAM mold)
  if(RDTSCOPE_MOLD_PROGRAM)
    add_link_options(-fuse-ld=mold)
  endif()
endif()

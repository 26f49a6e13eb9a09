# SPDX-License-Identifier: GPL-3.0-or-later
# Install step (included from cmake_install.cmake): copies RDTSCOPE_IN into RDTSCOPE_DEST under the install
# prefix, with the agent's default path /usr/libexec/rdtscope replaced by the one under this prefix.
get_filename_component(name "${RDTSCOPE_IN}" NAME)
set(dir "${CMAKE_INSTALL_PREFIX}/${RDTSCOPE_DEST}")
set(out "$ENV{DESTDIR}${dir}/${name}")
file(READ "${RDTSCOPE_IN}" text)
string(REPLACE "/usr/libexec/rdtscope" "${CMAKE_INSTALL_PREFIX}/${RDTSCOPE_LIBEXECDIR}/rdtscope" text "${text}")
message(STATUS "Installing: ${out}")
file(MAKE_DIRECTORY "$ENV{DESTDIR}${dir}")
file(WRITE "${out}" "${text}")
list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${dir}/${name}")

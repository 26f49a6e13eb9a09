# SPDX-License-Identifier: GPL-3.0-or-later
# CPack: one .deb per install component, dependencies computed by dpkg-shlibdeps from the binaries themselves,
# so rdtscope-cli and rdtscope-agent depend on no Qt library (tests/packaging checks it with dpkg-deb and ldd).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rdtscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The rdtscope developers")
set(CPACK_PACKAGE_CONTACT "The rdtscope developers <maintainers@rdtscope.org>")
# Staged with DESTDIR, so the install scripts see CMAKE_INSTALL_PREFIX=/usr, as InstallWithPrefix.cmake needs
# (without it they would see the staging directory as the prefix); CPACK_INSTALL_PREFIX is the prefix then.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL rdtscope-cli rdtscope-agent)
if(RDTSCOPE_BUILD_GUI)
  list(PREPEND CPACK_COMPONENTS_ALL rdtscope)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${RDTSCOPE_HOMEPAGE})
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

# CPack names component variables by the upper-cased component name, hyphen included.
set(CPACK_DEBIAN_RDTSCOPE_PACKAGE_NAME rdtscope)
set(CPACK_DEBIAN_RDTSCOPE_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RDTSCOPE_PACKAGE_RECOMMENDS "rdtscope-cli (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_RDTSCOPE_PACKAGE_SUGGESTS "rdtscope-agent (= ${PROJECT_VERSION}), xvfb")
set(CPACK_COMPONENT_RDTSCOPE_DESCRIPTION
    "cache and memory bandwidth monitor for Intel RDT and the PMU (GUI)
rdtscope shows, live, how the processes on an Intel machine share the
last-level cache and memory bandwidth (Intel RDT: CMT, MBM, CAT, CDP, MBA)
and how their code runs (top-down analysis, LBR branch chains, PEBS load
latency). Cache-way masks and bandwidth caps are edited by dragging and
written back to the hardware. Sessions are recorded and replayed.
A simulated Xeon makes every view work on any machine.
This package holds the Qt desktop application.")

set(CPACK_DEBIAN_RDTSCOPE-CLI_PACKAGE_NAME rdtscope-cli)
set(CPACK_DEBIAN_RDTSCOPE-CLI_PACKAGE_SECTION utils)
set(CPACK_COMPONENT_RDTSCOPE-CLI_DESCRIPTION
    "cache and memory bandwidth monitor for Intel RDT and the PMU (command line)
rdtscope-cli monitors last-level cache occupancy and memory bandwidth per
resctrl group, changes cache-way masks and bandwidth caps as one
transaction, records sessions for the rdtscope GUI to replay, and reads
perf.data files. It needs no Qt and no display: it is meant for headless
servers. Without Intel RDT it runs on a simulated Xeon and says so.")

set(CPACK_DEBIAN_RDTSCOPE-AGENT_PACKAGE_NAME rdtscope-agent)
set(CPACK_DEBIAN_RDTSCOPE-AGENT_PACKAGE_SECTION admin)
# groupadd in postinst (Debian 12's passwd is not Essential).
set(CPACK_DEBIAN_RDTSCOPE-AGENT_PACKAGE_DEPENDS "passwd")
set(CPACK_DEBIAN_RDTSCOPE-AGENT_PACKAGE_RECOMMENDS "pkexec")
set(CPACK_DEBIAN_RDTSCOPE-AGENT_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_SOURCE_DIR}/debian/postinst ${CMAKE_CURRENT_SOURCE_DIR}/debian/prerm
    ${CMAKE_CURRENT_SOURCE_DIR}/debian/postrm)
set(CPACK_COMPONENT_RDTSCOPE-AGENT_DESCRIPTION
    "privileged agent serving rdtscope's RDT capture engine to clients
rdtscope-agent reads the Intel RDT counters and writes cache and memory
bandwidth allocations (resctrl or the MSRs) for the rdtscope GUI and
rdtscope-cli, which run as ordinary users or on another machine. Clients
reach it through ssh, pkexec (polkit actions org.rdtscope.agent.*) or the
systemd socket /run/rdtscope/agent.sock, open to the group rdtscope.
It links no Qt and has no TCP listener.")

include(CPack)

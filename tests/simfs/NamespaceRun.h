// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A shell script run inside `rdtscope-cli sim --namespace` (the simulated machine mounted at /sys/fs/resctrl), the
// way the pqos tests and the pqos lesson's tests start it. Needs RDTSCOPE_CLI (the build's rdtscope-cli).

#include "../cli/CliRun.h"
#include "FuseTestUtil.h"

#include <cstdlib>
#include <string>

namespace rdt::simfs::test {

/// `rdtscope-cli sim --namespace SIMARGS -- sh -c SCRIPT`, the build's rdtscope-cli first on PATH inside, stdout and
/// stderr together, at most `seconds` (timeout(1)).
inline CliRun inNamespace(const std::string& script, int seconds = 60, const std::string& simArgs = {})
{
    std::string cli = RDTSCOPE_CLI;
    const std::string binDir = cli.substr(0, cli.rfind('/'));
    std::string quoted;
    for (char c : script)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return runShell("PATH=" + binDir + ":$PATH timeout " + std::to_string(seconds) + " " + cli + " sim --namespace "
        + simArgs + " -- sh -c '" + quoted + "' </dev/null 2>&1");
}

/// Why pqos cannot run on the mount here ("" when it can): FUSE or root missing, or pqos not installed.
inline std::string pqosUnavailableReason()
{
    if (auto why = fuseUnavailableReason(); !why.empty()) return why;
    if (std::system("command -v pqos >/dev/null 2>&1") != 0)
        return "pqos is not installed (Debian package intel-cmt-cat)";
    return {};
}

} // namespace rdt::simfs::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "RdtSource.h"

#include "ResctrlBackend.h"
#include "SimSource.h"
#include "core/PosixFs.h"

#include <cerrno>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace rdt {

bool resctrlMounted(const std::string& mountsFile, std::string* mountPoint)
{
    std::ifstream in(mountsFile);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string dev, dir, type;
        fields >> dev >> dir >> type;
        if (type == "resctrl") {
            if (mountPoint) *mountPoint = dir;
            return true;
        }
    }
    return false;
}

std::vector<std::string> rdtSourceSpecs()
{
    return { "auto", "sim", "sim-msr", "resctrl", "resctrl:PATH", "msr" };
}

namespace {
Result<RdtSource> openResctrl(const std::string& root, const std::string& why)
{
    struct stat st { };
    if (::stat(root.c_str(), &st) != 0)
        return errnoError(errno, "cannot open resctrl at " + root,
            root == "/sys/fs/resctrl" ? "mount it: mount -t resctrl resctrl /sys/fs/resctrl (needs RDT hardware)"
                                      : "give the root of a resctrl tree, e.g. --source resctrl:/sys/fs/resctrl");
    if (!S_ISDIR(st.st_mode))
        return errnoError(ENOTDIR, root + " is not a directory", "give the root of a resctrl tree");
    auto fs = std::make_shared<PosixFs>(root);
    auto backend = ResctrlBackend::open(fs);
    if (!backend) return backend.error();
    RdtSource s;
    s.warnings = (*backend)->warnings();
    // pqos (intel-cmt-cat) holds this lock while it drives RDT (docs/RESCTRL.md "Other RDT users").
    if (root == "/sys/fs/resctrl" && ::stat("/var/lock/libpqos", &st) == 0)
        s.warnings.push_back("/var/lock/libpqos exists: pqos/intel-cmt-cat may be changing RDT state too");
    s.backend = std::move(*backend);
    s.kind = "resctrl";
    s.why = why;
    return s;
}
}

Result<RdtSource> openRdtSource(const RdtSourceOptions& options)
{
    const auto& spec = options.spec;
    if (spec == "sim" || spec == "sim-msr") {
        auto s = openSimSource(spec, options.scenario);
        if (s)
            s->why = spec + ": simulated machine (scenario " + options.scenario + ") requested with --source " + spec
                + "; all data is simulated";
        return s;
    }
    if (spec == "resctrl")
        return openResctrl(
            options.resctrlRoot, "resctrl at " + options.resctrlRoot + " requested with --source resctrl");
    if (spec.rfind("resctrl:", 0) == 0) {
        const auto root = spec.substr(8);
        if (root.empty())
            return errnoError(EINVAL, "--source resctrl: needs a path", "e.g. --source resctrl:/sys/fs/resctrl");
        return openResctrl(root, "resctrl tree at " + root + " requested with --source " + spec);
    }
    if (spec == "msr") return openMsrSource(options);
    if (spec != "auto")
        return errnoError(
            EINVAL, "unknown source '" + spec + "'", "use auto, sim, sim-msr, resctrl, resctrl:PATH or msr");

    // auto: real resctrl when it is mounted and usable, otherwise the simulator, saying why.
    std::string mountPoint;
    std::string reason;
    if (resctrlMounted(options.mountsFile, &mountPoint)) {
        auto r = openResctrl(mountPoint, "auto: resctrl is mounted at " + mountPoint);
        if (r) return r;
        reason = "resctrl is mounted at " + mountPoint + " but unusable (" + r.error().toString() + ")";
    } else {
        reason = "resctrl not mounted (" + options.mountsFile
            + " has no resctrl entry; on RDT hardware: mount -t resctrl resctrl /sys/fs/resctrl)";
        std::ifstream cpuinfo("/proc/cpuinfo");
        std::string line;
        bool intel = false, rdtFlags = false;
        while (std::getline(cpuinfo, line)) {
            if (line.rfind("vendor_id", 0) == 0 && line.find("GenuineIntel") != std::string::npos) intel = true;
            if (line.rfind("flags", 0) == 0) {
                rdtFlags = line.find(" cqm") != std::string::npos || line.find(" rdt_a") != std::string::npos;
                break;
            }
        }
        if (!intel)
            reason += "; this CPU is not GenuineIntel";
        else if (!rdtFlags)
            reason += "; /proc/cpuinfo shows no cqm/rdt_a flags (CPUID.07H.00H:EBX[12]/[15] = 0 or hidden by a VM)";
    }
    auto s = openSimSource("sim", options.scenario);
    if (!s)
        return makeError(
            "auto: " + reason + ", and the simulator is unavailable: " + s.error().message, s.error().advice);
    s->why = "auto: " + reason + "; using the simulated machine (scenario " + options.scenario
        + "): all data is simulated";
    return s;
}

} // namespace rdt

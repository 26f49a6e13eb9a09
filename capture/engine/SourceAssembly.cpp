// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceAssembly.h"

#include "SimMsrScenario.h"
#include "rdt/MsrSource.h"

#include <cerrno>
#include <fstream>

namespace rdt {

Result<RdtSource> openRdtSource(const RdtSourceOptions& options)
{
    const auto& spec = options.spec;
    if (spec == "sim" || spec == "sim-msr") {
        auto s
            = openSimSource(spec, options.scenario, options.scenarioSetupOnly, options.simTimeScale, options.simPreset);
        if (s)
            s->why = spec + ": simulated machine (scenario " + options.scenario
                + (options.simPreset.empty() ? "" : ", preset " + options.simPreset) + ") requested with --source "
                + spec + "; all data is simulated";
        return s;
    }
    if (spec.rfind("sim-msr:", 0) == 0) {
        auto s = openSimMsrScenario(options.scenario, spec.substr(8));
        if (s)
            s->why = spec + ": simulated machine (scenario " + options.scenario + ") whose registers are kept in "
                + spec.substr(8) + " between runs, requested with --source " + spec + "; all data is simulated";
        return s;
    }
    if (spec == "resctrl")
        return openResctrlSource(
            options.resctrlRoot, "resctrl at " + options.resctrlRoot + " requested with --source resctrl");
    if (spec.rfind("resctrl:", 0) == 0) {
        const auto root = spec.substr(8);
        if (root.empty())
            return errnoError(EINVAL, "--source resctrl: needs a path", "e.g. --source resctrl:/sys/fs/resctrl");
        return openResctrlSource(root, "resctrl tree at " + root + " requested with --source " + spec);
    }
    if (spec == "msr") return openMsrSource(options);
    if (spec != "auto")
        return errnoError(EINVAL, "unknown source '" + spec + "'",
            "use auto, sim, sim-msr, sim-msr:DIR, resctrl, resctrl:PATH or msr");

    // auto: real resctrl when it is mounted and usable, otherwise the simulator, saying why.
    std::string mountPoint;
    std::string reason;
    if (resctrlMounted(options.mountsFile, &mountPoint)) {
        auto r = openResctrlSource(mountPoint, "auto: resctrl is mounted at " + mountPoint);
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
    auto s = openSimSource("sim", options.scenario, false, options.simTimeScale);
    if (!s)
        return makeError(
            "auto: " + reason + ", and the simulator is unavailable: " + s.error().message, s.error().advice);
    s->why = "auto: " + reason + "; using the simulated machine (scenario " + options.scenario
        + "): all data is simulated";
    return s;
}

} // namespace rdt

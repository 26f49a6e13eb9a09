// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceAssembly.h"

#include "SimMsrScenario.h"
#include "api/SourceSpec.h"
#include "rdt/MsrSource.h"
#include "sim/Scenario.h"

#include <cerrno>
#include <fstream>

namespace rdt {

Result<RdtSource> openRdtSource(const RdtSourceOptions& options)
{
    auto parsed = api::parseSourceSpec(options.spec);
    if (!parsed) return parsed.error();
    const api::SourceSpec& spec = *parsed;
    // --scenario and --preset are refused where they would be ignored, never dropped (api/SourceSpec.h).
    if (auto st = api::checkSimulatorOptions(spec, options.scenario, options.simPreset); !st) return st.error();
    const std::string scenario = options.scenario.empty() ? sim::defaultScenarioName() : options.scenario;
    const std::string text = spec.text();
    switch (spec.kind) {
    case api::SourceKind::Sim:
    case api::SourceKind::SimMsr:
        if (spec.path.empty()) {
            auto s = openSimSource(text, scenario, options.scenarioSetupOnly, options.simTimeScale, options.simPreset);
            if (s)
                s->why = text + ": simulated machine (scenario " + scenario
                    + (options.simPreset.empty() ? "" : ", preset " + options.simPreset) + ") requested with --source "
                    + text + "; all data is simulated";
            return s;
        } else {
            auto s = openSimMsrScenario(scenario, spec.path);
            if (s)
                s->why = text + ": simulated machine (scenario " + scenario + ") whose registers are kept in "
                    + spec.path + " between runs, requested with --source " + text + "; all data is simulated";
            return s;
        }
    case api::SourceKind::Resctrl:
        if (spec.path.empty())
            return openResctrlSource(
                options.resctrlRoot, "resctrl at " + options.resctrlRoot + " requested with --source resctrl");
        return openResctrlSource(spec.path, "resctrl tree at " + spec.path + " requested with --source " + text);
    case api::SourceKind::Msr:
        return openMsrSource(options);
    case api::SourceKind::Auto:
        break;
    }

    // auto: real resctrl when it is mounted and usable, otherwise the simulator, saying why.
    std::string mountPoint;
    std::string reason;
    if (resctrlMounted(options.mountsFile, &mountPoint)) {
        auto r = openResctrlSource(mountPoint, "auto: resctrl is mounted at " + mountPoint);
        if (r && (!options.scenario.empty() || !options.simPreset.empty())) {
            // The simulator options were meant for a machine auto did not choose: say so rather than drop them.
            const api::SourceSpec chosen { api::SourceKind::Resctrl, mountPoint };
            const auto refused = api::checkSimulatorOptions(chosen, options.scenario, options.simPreset);
            Error e = refused.error();
            e.message = "auto chose resctrl at " + mountPoint + ": " + e.message;
            return e;
        }
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
    auto s = openSimSource("sim", scenario, false, options.simTimeScale, options.simPreset);
    if (!s)
        return makeError(
            "auto: " + reason + ", and the simulator is unavailable: " + s.error().message, s.error().advice);
    s->why = "auto: " + reason + "; using the simulated machine (scenario " + scenario
        + (options.simPreset.empty() ? "" : ", preset " + options.simPreset) + "): all data is simulated";
    return s;
}

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "SimulationControl.h"
#include "api/Writability.h"
#include "core/Result.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rdt {

struct RdtSourceOptions {
    /// `auto`, `sim`, `sim-msr`, `sim-msr:DIR`, `resctrl`, `resctrl:PATH`, `msr`.
    std::string spec = "auto";
    /// Scenario for sim sources (resources/scenarios), e.g. "noisy-neighbour"; "" = not named (the default
    /// scenario for a simulated source; a real one refuses a named scenario, api/SourceSpec.h).
    std::string scenario;
    /// Where `resctrl` without a path and `auto` look.
    std::string resctrlRoot = "/sys/fs/resctrl";
    /// /proc/mounts path (tests point it at a file) for "is resctrl mounted" checks.
    std::string mountsFile = "/proc/mounts";
    /// `sim`, `sim-msr`: run only the scenario's set-up (machine, groups, threads), not its timed steps: a lesson's
    /// student performs those changes (docs/LESSONS.md). Last, so that positional initialisers keep their meaning.
    bool scenarioSetupOnly = false;
    /// `sim`: how far the simulated machine may thin its accesses once steady (TimeScale.h, docs/ARCHITECTURE.md
    /// "The simulated machine"); 1 = never.
    std::uint32_t simTimeScale = 1;
    /// `sim`: a CPU preset (capture/sim presets, e.g. "epyc-genoa") instead of the scenario's, with its own size.
    std::string simPreset = {};
};

/// An opened RDT source: the backend plus why it was chosen (docs/ARCHITECTURE.md "Sources").
struct RdtSource {
    std::unique_ptr<RdtBackend> backend;
    std::string kind; ///< "sim", "sim-msr", "resctrl", "msr"
    /// Human text: why this source, including the auto fallback reason, e.g. "auto: resctrl not mounted at
    /// /sys/fs/resctrl (mount -t resctrl resctrl /sys/fs/resctrl); using the simulated machine".
    std::string why;
    bool simulated = false;
    /// The simulated machine for sim sources (null otherwise): the sampler and GUI advance time through it.
    std::shared_ptr<SimulationControl> simulation;
    std::vector<std::string> warnings; ///< other RDT users seen, odd files, ...
    /// The file whose write access decides whether allocations can be changed (the resctrl tree's schemata, the
    /// MSR device); "" when nothing outside the process is written (simulated machines).
    std::string writeTarget;
};

/// Whether `source`'s allocations can be written by this process, and if not why and what would fix it.
/// `canWrite(path, why)` answers for one file (default: access(2) W_OK); injectable for tests.
api::Writability writabilityOf(
    const RdtSource& source, const std::function<bool(const std::string&, std::string*)>& canWrite = {});

/// resctrl at `root` (a real mount or a copy of a tree); `why` is kept in the source's description. Sources are
/// assembled (auto, sim, msr ...) by engine/SourceAssembly.h openRdtSource.
Result<RdtSource> openResctrlSource(const std::string& root, const std::string& why);

/// Whether a resctrl filesystem is mounted (per mountsFile), and where.
bool resctrlMounted(const std::string& mountsFile, std::string* mountPoint = nullptr);

} // namespace rdt

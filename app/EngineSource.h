// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SourceBundle.h"

#include "core/Result.h"

#include <QString>

#include <memory>
#include <string>

namespace rdt::engine {
class Engine;
}

/// Opens an RDT source by spec ("auto", "sim", "sim-msr[:DIR]", "resctrl[:PATH]", "msr") in the capture service
/// (capture/engine, the front door the CLI and the agent use too) and wraps it for the GUI: the service's sampler
/// polls on its own thread at `rateHz`, the frame pump drains its events; allocation edits and group commands are
/// engine commands. `scenarioSetupOnly` (a lesson's machine): the scenario's timed steps do not run.
/// `simTimeScale`: a simulated machine may thin its accesses up to this factor once steady (the dashboard's idle
/// cost; capture/sim/TimeScale.h). `preset`: with `sim`, a CPU preset instead of the scenario's ("epyc-genoa").
rdt::Result<SourceBundle> openEngineSource(const std::string& spec, const std::string& scenario, double rateHz = 10.0,
    bool scenarioSetupOnly = false, std::uint32_t simTimeScale = 1, const std::string& preset = {});

/// A recorded session (rdtscope-cli record, the GUI's Record) as a source: engine/ReplayEngine.h answers its
/// groups, allocation layout and samples as a live engine does, the replay bar drives its playback (seek, speed);
/// it writes nothing and says why.
rdt::Result<SourceBundle> openReplaySource(const QString& path);

/// The same over an engine opened elsewhere (a remote one reached through rdtscope-agent, or a service over a
/// test's backend). Whether allocations can be edited is the engine's answer (SourceDescription::writability).
rdt::Result<SourceBundle> engineSourceBundle(std::unique_ptr<rdt::engine::Engine> engine, double rateHz);

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/Engine.h"
#include "models/AllocationState.h"
#include "models/GroupControl.h"
#include "models/MachineDescription.h"
#include "models/ReplayControl.h"
#include "models/SampleFeed.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace rdt::engine {
class Engine;
}

/// Everything one opened data source gives the main window. The adapters point into engine objects that
/// `engine` keeps alive (declared first, destroyed last).
struct SourceBundle {
    std::shared_ptr<void> engine; ///< RdtSource + Sampler, or the replay source
    std::unique_ptr<SampleFeed> feed;
    std::unique_ptr<GroupControl> groups; ///< null: no group operations (replay)
    std::unique_ptr<AllocationWriter> writer; ///< null: allocations are read-only
    std::unique_ptr<ReplayControl> replay; ///< only for replays
    /// Reads the current allocation picture (groups, masks, MBA) for the heatmap; empty when there is none.
    std::function<rdt::Result<AllocationState>()> readAllocation;
    QString readOnlyReason; ///< why editing is disabled ("" when writable)
    /// The free assignable MBM counters now (rdt::formatFreeCounters), "" when counters are not assignable; null
    /// for a replay.
    std::function<std::string()> counterStatus;
    /// The engine experiments (sweeps, the advisor) run on; points into `engine`. Null for a replay.
    rdt::engine::Engine* experimentEngine = nullptr;
    /// The engine of a live engine source (null for a replay): a lesson run performs its actions through it.
    rdt::engine::Engine* liveEngine = nullptr;
    /// Routes every event the frame pump drains to `tap` first (a lesson run); null for a replay.
    std::function<void(std::function<void(const rdt::engine::EngineEvent&)>)> setEventTap;
    /// The machine the source measures as its engine reports it (api/MachineReport.h: the simulated CPU for the
    /// simulator, the recorded one for a replay, the agent's for a connected source); none when it cannot say.
    std::optional<rdt::api::MachineReport> machine;
    /// The machine the engine runs on, as the engine describes it, for an engine on another machine (an agent's):
    /// the Machine page shows it instead of the GUI's own host; for a replay, the machine the session was recorded on.
    /// None for local engines.
    std::optional<MachineDescription> remoteMachine;
};

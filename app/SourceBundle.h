// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/AllocationState.h"
#include "models/GroupControl.h"
#include "models/ReplayControl.h"
#include "models/SampleFeed.h"

#include <QString>

#include <functional>
#include <memory>

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
};

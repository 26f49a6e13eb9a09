// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The capture service's snapshot (local or an agent's) as the readings StateWatcher observes, for every recorder
// (rdtscope-cli record, the GUI's recording): one conversion, so both record the same membership and allocation
// changes. Header-only: a recorder links the session library, the engine need not.

#include "EngineTypes.h"
#include "session/StateWatcher.h"

#include <optional>
#include <vector>

namespace rdt::engine {

inline std::vector<session::StateWatcher::GroupReading> readingsOf(const GroupsSnapshot& snapshot)
{
    std::vector<session::StateWatcher::GroupReading> readings;
    readings.reserve(snapshot.groups.size());
    for (const auto& g : snapshot.groups) {
        const bool schemataRead = g.info.isControl && g.schemataError.empty();
        readings.push_back({ g.info.path, g.info.isControl,
            schemataRead ? std::optional<Schemata>(g.schemata) : std::nullopt, g.schemataError,
            g.taskCount ? std::optional(g.tasks) : std::nullopt, g.cpusKnown ? std::optional(g.cpus) : std::nullopt });
    }
    return readings;
}

} // namespace rdt::engine

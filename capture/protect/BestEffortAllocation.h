// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The best-effort groups' allocation as the controller writes it: knobs turned into each group's L3 (or L3CODE and
// L3DATA) mask, the lowest `beWays` ways on every domain, and its MB value, written through the engine's
// transaction (Engine::applyAllocation: validated, every domain or none) and read back. It keeps the lines found
// at the start, so the start allocation can be written back at the end, on a stop and when the signal is lost.

#include "Knobs.h"
#include "engine/Engine.h"

#include <map>
#include <string>
#include <vector>

namespace rdt::protect {

class BestEffortAllocation {
public:
    /// Reads the groups' allocations now (the start allocation) and what the knobs may be. Fails when a group is
    /// unknown or not a control group, when the machine has no L3 CAT, or when a group's schemata cannot be read.
    static Result<BestEffortAllocation> open(engine::Engine& engine, const std::vector<std::string>& groups,
        unsigned minBeWays, std::optional<unsigned> mbaFloor);

    const KnobLimits& limits() const { return m_limits; }
    /// What the start allocation amounts to (the widest mask's ways, the highest MB value).
    const Knobs& startKnobs() const { return m_startKnobs; }
    /// The schemata the knobs mean for every group (the same for each).
    Schemata schemataOf(const Knobs& knobs) const;

    /// Writes the knobs to every group; a refusal writes back the groups already changed in this call. Returns the
    /// number of schemata writes made; `error` says why it failed ("" when every group reads back as written).
    unsigned write(const Knobs& knobs, const Knobs& previous, std::string& error);
    /// Writes the start allocation back to every group whose lines differ from it and reads it back: true when
    /// every line reads as it was.
    bool restoreStart(unsigned& writes, std::vector<std::string>& log);
    /// Every group's L3/MB lines now, one line of text per group ("streamer: L3:0=7ff;1=7ff MB:0=100;1=100").
    std::vector<std::string> describeNow();
    const std::vector<std::string>& groups() const { return m_groups; }

private:
    BestEffortAllocation(engine::Engine& engine)
        : m_engine(&engine)
    { }
    /// Every line of `expected` reads back from `group`.
    bool readsBack(const std::string& group, const Schemata& expected, std::string& why);

    engine::Engine* m_engine;
    std::vector<std::string> m_groups;
    std::map<std::string, Schemata> m_start; ///< per group: its controlled lines at the start
    std::vector<std::string> m_cacheResources; ///< "L3" or "L3CODE", "L3DATA"
    std::vector<int> m_cacheDomains, m_mbaDomains;
    std::uint64_t m_fullMask = 0;
    KnobLimits m_limits;
    Knobs m_startKnobs;
};

} // namespace rdt::protect

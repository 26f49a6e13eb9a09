// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

namespace rdt::sim {

class SimMachine;

/// The emulated kernel's software MBM counts: per (domain, hardware RMID, event) the last hardware counter value
/// and the wrap-corrected chunks since the count started (fs/resctrl/monitor.c mbm_overflow_count).
class SimMbmCounters {
public:
    explicit SimMbmCounters(SimMachine& machine);

    /// The count starts again from the counter's current value (resctrl_arch_reset_rmid, resctrl_arch_reset_cntr).
    void restart(unsigned domain, std::uint32_t hwRmid, std::uint32_t event);
    /// Adds what the counter moved since the last look (modulo its width) and returns the chunks so far.
    std::uint64_t advance(
        unsigned domain, std::uint32_t hwRmid, std::uint32_t event, std::uint64_t units, std::uint64_t widthMask);

private:
    struct State {
        std::uint64_t prevMsr = 0, chunks = 0;
    };
    SimMachine& m_machine;
    std::map<std::tuple<unsigned, std::uint32_t, std::uint32_t>, State> m_state; ///< (domain, rmid, event)
};

} // namespace rdt::sim

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The kernel's resctrl/mon_llc_occupancy_limbo tracepoint (fs/resctrl/monitor_trace.h: ctrl_hw_id, mon_hw_id,
// domain_id, llc_occupancy_bytes), read through tracefs to explain an EBUSY mkdir: the RMIDs freed by removed groups
// stay in limbo until their lines leave the cache (occupancy below info/L3_MON/max_threshold_occupancy), and the
// tracepoint says what each still holds. Read only: rdtscope never enables the event itself; a tracefs that is not
// mounted, a tracepoint that is absent or off is said as such, never read as "nothing in limbo".

#include "core/Fs.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// One event of the tracepoint: an RMID (mon_hw_id) of a CLOS (ctrl_hw_id) in limbo in an L3 domain.
struct LimboRmid {
    unsigned ctrlHwId = 0;
    unsigned monHwId = 0;
    int domain = 0;
    std::uint64_t occupancyBytes = 0;
    bool operator==(const LimboRmid&) const = default;
};

/// What tracefs gave: the events (the latest per RMID and domain), or why there are none to read.
struct LimboReport {
    bool readable = false; ///< false: `why` says what is missing (tracefs, the tracepoint, its enable switch)
    std::string why;
    std::vector<LimboRmid> rmids;

    /// The sentence an EBUSY mkdir's advice carries: "RMIDs in limbo (tracepoint mon_llc_occupancy_limbo): RMID 5
    /// in domain 0 holds 1.50 MiB; ..." or why they cannot be listed.
    std::string advice() const;
};

class LimboTrace {
public:
    /// `tracefs` is rooted at the tracefs mount (/sys/kernel/tracing).
    explicit LimboTrace(Fs& tracefs);
    LimboReport read() const;
    /// The tracepoint's lines of a trace buffer ("... mon_llc_occupancy_limbo: ctrl_hw_id=1 mon_hw_id=5
    /// domain_id=0 llc_occupancy_bytes=1572864"), the latest per (RMID, domain) in order of first appearance; other
    /// lines and malformed fields are skipped. At most `maxRmids` entries.
    static std::vector<LimboRmid> parse(std::string_view trace, std::size_t maxRmids = 256);

    static constexpr const char* kEventDir = "events/resctrl/mon_llc_occupancy_limbo";

private:
    Fs& m_fs;
};

} // namespace rdt

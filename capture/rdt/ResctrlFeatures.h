// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// One `<domain>=<value>` item of the per-domain info files (num_mbm_cntrs, available_mbm_cntrs,
/// mbm_total_bytes_config, io_alloc_cbm).
struct DomainValue {
    int domain = 0;
    std::uint64_t value = 0;
    bool operator==(const DomainValue&) const = default;
};

/// "0=0x7f;1=0x7f" / "0=32;1=32" / "0=ffff;1=ffff" (base 16 for masks: io_alloc_cbm). Spaces are ignored.
Result<std::vector<DomainValue>> parseDomainValues(std::string_view text, int base = 10);
std::uint64_t valueOfDomain(const std::vector<DomainValue>& values, int domain, std::uint64_t fallback = 0);

/// BMEC transaction bits (kernel Documentation/filesystems/resctrl.rst "mbm_total_bytes_config") by the names the
/// newer `event_configs/*/event_filter` files use for the same bits: bit 0 local_reads ... bit 6
/// dirty_victim_writes_all.
std::vector<std::string> bmecTransactionNames(std::uint64_t mask);
/// "local_reads,remote_reads" -> mask; unknown names are an error naming them.
Result<std::uint64_t> bmecMaskFromNames(std::string_view names);
/// Bits a BMEC configuration may have (0x7f).
constexpr std::uint64_t kBmecValidMask = 0x7f;

/// info/L3_MON/mbm_assign_mode ("[mbm_event]\ndefault") and the RFC's info/<RES>/mode ("[legacy] native"): the
/// mode in brackets is the active one; modes are separated by newlines or spaces.
struct AssignModes {
    std::string active;
    std::vector<std::string> all;
};
AssignModes parseAssignModes(std::string_view text);

/// One event's line of a group's mbm_L3_assignments: "mbm_total_bytes:0=e;1=_".
struct CounterAssignment {
    std::string event;
    std::vector<std::pair<int, char>> domains; ///< 'e' assigned (exclusive), '_' none; other letters kept as read
    bool assigned(int domain) const;
};
Result<std::vector<CounterAssignment>> parseCounterAssignments(std::string_view text);
/// The line that assigns ('e') or unassigns ('_') `event` in `domain` (-1 = every domain, written as '*').
std::string formatAssignmentCommand(const std::string& event, int domain, bool assign);

/// "mon_L3_03" -> 3, "mon_sub_L3_07" -> 7 (with the matching prefix); nullopt otherwise.
std::optional<int> idAfterPrefix(std::string_view name, std::string_view prefix);

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one validator of allocation changes: pure functions over plain data (capabilities, the other groups' masks,
// the proposed change). The AllocationEngine runs it before anything is written; the GUI runs the same function
// to colour a staged edit, so an edit that looks valid is one the engine accepts. The rules and the wording
// follow the kernel's resctrl (fs/resctrl/ctrlmondata.c parse_cbm/cbm_validate/bw_validate, rdtgroup.c
// rdtgroup_cbm_overlaps) and SDM 20.19.4.2 / 20.19.7.

#include "RdtBackend.h"
#include "Schemata.h"
#include "core/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt {

/// Why one value of a change is refused: where, the reason in the kernel's wording where it has one
/// ("The mask f0f has non-consecutive 1-bits"), and advice that fits the cause.
struct AllocationProblem {
    std::string resource; ///< "" when the problem is the change as a whole
    int domain = -1; ///< -1 when the problem is not one domain's
    std::string reason;
    std::string advice;

    /// "L3:0", "L3" or "".
    std::string where() const;
    /// EINVAL with "where: reason" and the advice (what the CLI and the engine report).
    Error toError() const;
};

/// One mask another control group holds in the domain being checked.
struct PeerMask {
    std::string group; ///< path ("" = default group)
    std::string resource; ///< the schema it was read from ("L3", or the CDP peer "L3DATA")
    std::uint64_t mask = 0;
    bool exclusive = false; ///< that group's resctrl mode is "exclusive"
};

/// Another control group as a whole, for validateAllocation.
struct PeerGroup {
    std::string path;
    bool exclusive = false;
    Schemata schemata;
};

/// The CDP partner whose masks cover the same ways (L3CODE <-> L3DATA, L2CODE <-> L2DATA); "" when none.
std::string cdpPeer(const std::string& resource);
/// True when the set bits of `mask` form one run (SDM 20.19.4.2: CBMs are contiguous unless sparse masks are
/// enumerated). A zero mask counts as contiguous.
bool isContiguous(std::uint64_t mask);

/// Checks one capacity bitmask of `resource` (a cache resource) for one domain. `selfExclusive` is the mode of the
/// group being changed; `peers` are the masks every other control group holds in that domain, CDP peers included.
std::optional<AllocationProblem> checkCacheMask(const ResourceCaps& resource, int domain, std::uint64_t mask,
    bool selfExclusive, const std::vector<PeerMask>& peers);

/// The value written for a bandwidth request, or the reason it cannot be. `note` says when it was rounded
/// ("MB:0 71 rounded up to 80 (bandwidth_gran 10)").
struct BandwidthVerdict {
    std::uint64_t value = 0;
    std::string note;
    std::optional<AllocationProblem> problem;
};
BandwidthVerdict checkBandwidth(const ResourceCaps& resource, int domain, std::uint64_t requested);

/// What validateAllocation decided: the normalised change (masks as resctrl spells them, MB rounded up to the
/// granularity as the kernel does) and notes, or the first problem.
struct AllocationVerdict {
    bool ok = false;
    Schemata normalised;
    std::vector<std::string> notes;
    AllocationProblem problem; ///< when !ok
};

/// How much of a CBQRI MB_MIN budget (MRBWB) the control groups reserve in one domain and how many blocks still fit:
/// the one sum the validator checks against and the editors show ("758 of 819 blocks reserved, 61 still fit").
struct ReservationUse {
    std::uint64_t budget = 0; ///< 0: unknown, nothing is checked
    std::uint64_t reserved = 0; ///< the sum over every group counted
    std::uint64_t room = 0; ///< budget - reserved, 0 when the budget is used up (or over)
    bool over() const { return budget > 0 && reserved > budget; }
};
ReservationUse reservationUse(std::uint64_t budget, std::uint64_t reserved);

/// CBQRI MB_MIN (the CBQRI branch's resctrl.rst): the blocks every control group reserves in a domain add up to at
/// most the resource's budget (MRBWB), and the kernel refuses a write over it with EINVAL. `held` is what the other
/// groups reserve there; a budget of 0 (unknown) checks nothing.
std::optional<AllocationProblem> checkReservation(
    const ResourceCaps& resource, int domain, std::uint64_t requested, std::uint64_t held);

/// Region-aware bandwidth: MB_REGION<n>_MIN <= MB_REGION<n>_OPT <= MB_REGION<n>_MAX in every domain `touched` (the
/// change) names a bound of, over the values `merged` holds (the group's current schemata with the change on top).
/// A bound `merged` lacks is not checked.
std::optional<AllocationProblem> checkRegionTriples(
    const Capabilities& caps, const Schemata& merged, const Schemata& touched);

/// The whole check of one change to `group`: resource names, domains, masks, overlaps with `peers` (every other
/// control group), bandwidth ranges and rounding, MB_MIN's budget over the peers' reservations, and region triples
/// over `current` (the group's schemata; null: only the bounds the change names). Pure: the same inputs give the
/// same verdict.
AllocationVerdict validateAllocation(const Capabilities& caps, const std::string& group, bool groupExclusive,
    const std::vector<PeerGroup>& peers, const Schemata& change, const Schemata* current = nullptr);

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "Sample.h"
#include "Schemata.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace rdt {

/// A proposed change: some lines of one control group's schemata (only the listed domains change).
struct AllocationRequest {
    std::string group; ///< control group path ("" = default group)
    Schemata change;
    std::string who = "cli"; ///< "gui", "cli", "scenario", ... (copied into AllocationChanged)
};

/// What apply() did: the normalised change that was written (MB rounded up to the granularity), one
/// AllocationChanged per resource and domain, and the first failure when !ok.
struct AllocationOutcome {
    bool ok = false;
    Schemata applied;
    std::vector<AllocationChanged> events;
    std::vector<std::string> notes; ///< e.g. "MB:0 70 rounded up to 80 (bandwidth_gran 10)"
    Error error; ///< first failure (validation or write) when !ok
    bool rolledBack = false; ///< every domain already written, and the failed one, reads back as before
    /// Every step in order, numbered, and what the rollback restored: "1 L3:0 fffff -> ff0: written",
    /// "2 L3:1 fffff -> ff0: failed: ...", "rollback L3:1: restored fffff", "rollback L3:0: restored fffff".
    std::vector<std::string> steps;
};

/// Validates allocation changes against the capabilities before anything is written, then applies them as one
/// transaction (docs/ARCHITECTURE.md "Data flow": an edit the backend rejects is rolled back in every domain it
/// touched).
class AllocationEngine {
public:
    explicit AllocationEngine(RdtBackend& backend);

    /// Checks the change against the capabilities and the other groups, with messages as clear as the kernel's
    /// ("The mask f0f has non-consecutive 1-bits", "Need at least 2 bits in the mask", "Mask out of range",
    /// "MB value 5 out of range [10,100]", "Overlaps with exclusive group p1", ...). Returns the normalised
    /// change (MB rounded up to bandwidth_gran as the kernel does) and notes about any rounding.
    Result<Schemata> validate(
        const std::string& group, const Schemata& change, std::vector<std::string>* notes = nullptr);

    /// One transaction under the backend's ChangeLock (resctrl: the exclusive root flock) held from reading the
    /// current state through validation, each (resource, domain) write and its read-back, to the rollback: on the
    /// first failure every value already written and the failed one (a write whose read-back differs did change
    /// the hardware) is compared with what was read before and restored, newest first. Publishes AllocationChanged
    /// events for every value attempted (ok=false with the reason for the failed one and for those rolled back).
    AllocationOutcome apply(const AllocationRequest& request);

    /// Called (on the calling thread of apply()) with each event.
    void setListener(std::function<void(const AllocationChanged&)> listener);
    /// Time stamps for events (default monotonicNs(); sim sources pass simulated time).
    void setClock(std::function<std::uint64_t()> clock);
    /// Every event published so far (for the CLI and tests; sessions use the listener).
    std::vector<AllocationChanged> history() const;

private:
    struct RollbackStep {
        std::string resource;
        int domain;
        std::string oldValue;
    };
    void publish(AllocationChanged event);
    /// Restores steps [0, failed] (newest first) where the group's schemata differs from the old value, then
    /// checks every one reads back as before; appends "rollback ..." lines to `log`. Caller holds the ChangeLock.
    bool rollBack(const std::string& group, std::size_t failed, const std::function<RollbackStep(std::size_t)>& stepAt,
        std::vector<std::string>& log);

    RdtBackend& m_backend;
    std::function<void(const AllocationChanged&)> m_listener;
    std::function<std::uint64_t()> m_clock;
    mutable std::mutex m_mutex;
    std::vector<AllocationChanged> m_history;
};

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Allocation changes the engine did not make: another program (Intel's pqos, a shell's `echo > schemata`) wrote a
// control group's schemata or mode. The engine's own writes publish
// AllocationChanged events with their own `who` and are acknowledged here, so they are never reported again.

#include "rdt/RdtBackend.h"
#include "rdt/Sample.h"
#include "session/StateWatcher.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rdt::engine {

/// AllocationChanged::who of a change no command of this engine explains (docs/ARCHITECTURE.md "External
/// changes"). A mode change is reported with resource kModeResource and domain -1.
inline constexpr const char* kExternalWho = "external";
inline constexpr const char* kModeResource = "mode";

class ExternalChangeDetector {
public:
    /// Reads every control group's schemata and mode (one listGroups and one schemata read per control group;
    /// monitor groups, tasks and CPUs are not read) and returns what changed since the last check and was not
    /// acknowledged, with who = kExternalWho. The first check (and the first after reset()) only takes the
    /// baseline. A group
    /// that appears after the baseline reports only the values that differ from the default group's (a new
    /// group starts at the defaults, resctrl.rst "Resource groups"), with an empty old value.
    std::vector<AllocationChanged> check(RdtBackend& backend, std::uint64_t timeNs);
    /// A change this engine made (its own `who`): the new value is known, not news.
    void acknowledge(const AllocationChanged& change);
    /// A group this engine created: its initial values are known.
    void adoptGroup(RdtBackend& backend, const std::string& path);
    /// Everything changed underneath (a remount): the next check takes a new baseline.
    void reset();

private:
    struct Reading {
        std::vector<session::StateWatcher::GroupReading> groups;
        std::map<std::string, std::string> modes;
    };
    static Reading read(RdtBackend& backend, const std::string* onlyPath);

    session::StateWatcher m_watcher;
    bool m_baselined = false;
    std::map<std::string, std::string> m_modes;
    std::set<std::string> m_known; ///< control groups seen at a check or adopted
};

} // namespace rdt::engine

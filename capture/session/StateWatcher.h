// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionTypes.h"
#include "rdt/RdtBackend.h"
#include "rdt/Sample.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace rdt::session {

/// Watches a backend's groups for allocation and membership changes made by anyone (another tool, a scenario
/// step, the kernel) so a recording holds the state in force at every time and replay can seek. The first
/// poll reports the whole initial state (who = "initial"); later polls report differences (who = "observed").
class StateWatcher {
public:
    explicit StateWatcher(RdtBackend& backend)
        : m_backend(&backend)
    { }
    /// A watcher fed through observe() only.
    StateWatcher() = default;

    struct Changes {
        std::vector<AllocationChanged> allocations;
        std::vector<MembershipSnapshot> memberships;
        std::vector<std::string> errors; ///< groups that could not be read this time (kept, not fatal)
    };

    /// One group as read at one time; a part that could not be read is empty (none), and stays as last seen.
    struct GroupReading {
        std::string path;
        bool isControl = false;
        std::optional<Schemata> schemata;
        std::string schemataError; ///< why schemata is none, for Changes::errors
        std::optional<std::vector<unsigned>> tasks;
        std::optional<std::vector<unsigned>> cpus;
    };

    /// Reads the backend's groups and observes them.
    Changes poll(std::uint64_t timeNs);
    /// Observes groups read elsewhere (the capture engine's snapshot, local or on an agent): the same rules.
    Changes observe(std::uint64_t timeNs, const std::vector<GroupReading>& groups);
    /// Takes one value as known without reporting it (a change its maker reported already).
    void acknowledge(const std::string& path, const std::string& resource, int domain, const std::string& value)
    {
        m_values[{ path, resource, domain }] = value;
    }

private:
    RdtBackend* m_backend = nullptr;
    bool m_first = true;
    std::map<std::tuple<std::string, std::string, int>, std::string> m_values;
    std::map<std::string, std::pair<std::string, std::string>> m_members;
};

/// {0,1,2,3,8} -> "0-3,8".
std::string compressIdList(std::vector<unsigned> ids);

} // namespace rdt::session

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "EngineTypes.h"
#include "rdt/RdtSource.h"

#include <memory>
#include <string>
#include <vector>

namespace rdt::engine {

class GroupPmuCounter;
struct ServiceOptions;

/// A group's PMU counts for Engine::countGroupPmu, from whoever can count its tasks: a simulated machine's model of
/// its threads, or on a real source the host's PMU through perf_event_open (GroupPmuCounter, opened on first use).
/// A simulated source without a model (its task IDs are not this machine's threads) is refused.
class GroupPmuCounting {
public:
    /// Both are CaptureService's members and outlive this; `source` may be replaced (a CDP remount).
    GroupPmuCounting(const RdtSource& source, const ServiceOptions& options);
    ~GroupPmuCounting();
    GroupPmuCounting(const GroupPmuCounting&) = delete;
    GroupPmuCounting& operator=(const GroupPmuCounting&) = delete;

    Result<GroupPmuCounts> count(const std::string& group, const std::vector<unsigned>& tasks);

private:
    const RdtSource& m_source;
    const ServiceOptions& m_options;
    std::unique_ptr<GroupPmuCounter> m_hostCounter; ///< real sources' per-group counts, opened on first use
};

} // namespace rdt::engine

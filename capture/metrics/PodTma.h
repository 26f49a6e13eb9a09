// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// rdtscope-agent --metrics-tma on a real source: which groups are countable and how. A --monitor-pods group
// (rdtscope-agent.PID.pod-UID) holds one pod's tasks, and the pod has a cgroup of its own, so its TMA is counted
// on that cgroup (CgroupTma.h). Any other group's tasks share no cgroup: it is logged once, and has no series.

#include "MetricsFeed.h"
#include "pmu/PerfSyscalls.h"
#include "pmu/Recipes.h"

#include <functional>
#include <memory>
#include <string>

namespace rdt::metrics {

/// The counter the feed asks per group. `procRoot`: where /proc is (a task's cgroup); `cgroupRoot`: where cgroup
/// v2 is mounted; `agentPid`: whose pod groups count; `perf` makes the perf syscalls on first use (with the host's
/// TMA recipe). Every refusal and error is logged once per group.
TmaCounter podTmaCounter(std::string procRoot, std::string cgroupRoot, unsigned agentPid,
    std::function<std::unique_ptr<pmu::PerfSyscalls>()> perf, std::function<void(const std::string&)> log,
    std::function<Result<pmu::Recipe>()> recipe = {});

} // namespace rdt::metrics

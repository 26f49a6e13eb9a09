// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where a `source resctrl` lesson runs (docs/LESSONS.md "Lessons with host tools"): the simulated machine that
// `rdtscope-cli sim --namespace --scenario SCENARIO` mounts at /sys/fs/resctrl, and nothing else, so a lesson's
// `run` commands (pqos ...) never change a real machine's allocations.

#include "Lesson.h"
#include "core/Result.h"
#include "engine/EngineTypes.h"

namespace rdt::lesson {

/// Where `rdtscope-cli sim --namespace` mounts the simulated machine (simfs/ResctrlNamespace.h kMountpoint).
inline constexpr const char* kMountedMachinePath = "/sys/fs/resctrl";

/// Ok when the simulated machine is mounted at kMountedMachinePath (a `fuse.resctrl` mount in /proc/self/mounts);
/// otherwise what is there and how to start the lesson on the simulated machine.
Status requireMountedMachine(const Lesson& lesson);
/// Ok when the mounted machine serves the lesson's scenario: every group its set-up makes is in `snapshot`.
Status requireScenarioGroups(const Lesson& lesson, const engine::GroupsSnapshot& snapshot);

} // namespace rdt::lesson

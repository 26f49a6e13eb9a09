// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "core/IdList.h"

#include <string_view>

namespace rdt {

/// A CPU list a user typed (CLI --cpus, the GUI's CPU field, the agent) checked against the backend's CPUs:
/// ids beyond the highest CPU fail while parsing (nothing is expanded first), and ids that are not online are
/// named by number ("CPUs 5, 7 are not online"). One rule for every front end.
Result<std::vector<unsigned>> parseUserCpus(std::string_view text, const Capabilities& caps);
/// A PID list a user typed: ids below /proc/sys/kernel/pid_max, 0 refused (to resctrl it means "the writer").
Result<std::vector<unsigned>> parseUserPids(std::string_view text);

} // namespace rdt

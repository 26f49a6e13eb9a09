// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the agent checks in a client's command before the engine sees it (issue: "inputs from the client are never
// trusted"). The rules themselves are the ones every front end uses (rdt/GroupNames.h, rdt/UserIds.h); here they
// are applied to values that arrive as protocol fields instead of typed text.

#include "agent.pb.h"
#include "engine/PmuTypes.h"
#include "protocol/UnixSocket.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt::engine {
class CaptureService;
}

namespace rdt::agent {

namespace pb = rdtscope::agent::v1;

/// The most simulated time one AdvanceTo may run: an hour, the longest interval any rdtscope-cli command polls at
/// (--interval 3600000 ms). docs/PROTOCOL.md "Work bounds" has what it costs.
inline constexpr std::uint64_t kMaxAdvanceNs = 3'600'000'000'000;
/// An AdvanceTo runs in slices of this much simulated time, and stops between two when its session ends.
inline constexpr std::uint64_t kAdvanceSliceNs = 10'000'000;
/// Simulated cycles one PMU pump may run on the agent (the engine allows 10^8, about a second per core; the agent a
/// tenth, so that a stop never waits long for a pump).
inline constexpr std::uint64_t kMaxPumpCycles = 10'000'000;
/// Groups one Experiment may name.
inline constexpr int kMaxExperimentGroups = 4096;
/// Rows per table of one PmuReport.
inline constexpr std::uint32_t kMaxReportRows = 10000;

/// The work one request may cause, bounded before it runs (docs/PROTOCOL.md "Work bounds"): simulated time per
/// AdvanceTo from `simulatedNowNs` (the simulated source's clock; empty for a real source, where AdvanceTo is a
/// no-op; a time in the past is a no-op too), simulated cycles per PMU pump, groups per Experiment, rows per
/// PmuReport. A refusal names the bound.
Status checkWorkBounds(const pb::Request& request, std::optional<std::uint64_t> simulatedNowNs);

/// Source specs the engine knows; `resctrl:PATH` and `sim-msr:DIR` only from a stdio client (authenticated by ssh or
/// pkexec) or root on the unix socket; scenarios by built-in name only (the privileged agent reads no file a client
/// names); presets by built-in id.
Status checkSourceRequest(const std::string& source, const std::string& scenario, const std::string& preset,
    const std::optional<protocol::PeerCredentials>& peer);

/// Group names and paths (rdt/GroupNames.h), and the PID or CPU list of an assignment checked as if typed
/// (rdt/UserIds.h: PID 0 refused, PIDs below pid_max, CPUs that exist and are online). Returns the ids.
Result<std::vector<unsigned>> checkGroupCommand(const pb::GroupCommand& command, engine::CaptureService& service);

/// A counter assignment, event configuration or CDP switch: a group path checked as GroupNames does, an event name
/// of at most 64 characters, a domain from -1 (every domain) to 4095; the engine checks the rest against the
/// machine (the event exists, the domain exists, a counter is free) as it does for the CLI.
Status checkResctrlSetting(const pb::ResctrlSetting& setting);

/// A PMU capture request: a known kind, PIDs checked as if typed (rdt/UserIds.h), a load-latency threshold and a
/// memory scale in the CLI's ranges, and a command to launch only from a stdio client (authenticated by ssh or
/// pkexec) or root on the unix socket: the agent launches it as its own user.
Result<engine::PmuRequest> checkPmuRequest(
    const pb::StartPmu& request, const std::optional<protocol::PeerCredentials>& peer);

} // namespace rdt::agent

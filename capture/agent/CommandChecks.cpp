// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandChecks.h"

#include "api/SourceSpec.h"
#include "core/IdList.h"
#include "engine/CaptureService.h"
#include "engine/SourceAssembly.h"
#include "rdt/GroupNames.h"
#include "rdt/UserIds.h"
#include "remote/PmuCodec.h"
#include "sim/SimCpuid.h"

#include <algorithm>
#include <cerrno>

namespace rdt::agent {

namespace {
/// More ids than this in one command is not a real request (resctrl CPUs and a process's threads are far fewer).
constexpr std::size_t kMaxIds = 1u << 16;
}

Status checkWorkBounds(const pb::Request& request, std::optional<std::uint64_t> simulatedNowNs)
{
    switch (request.command_case()) {
    case pb::Request::kAdvanceTo: {
        const std::uint64_t target = request.advance_to().time_ns();
        if (!simulatedNowNs) return {};
        const std::uint64_t sourceNowNs = *simulatedNowNs;
        if (target <= sourceNowNs || target - sourceNowNs <= kMaxAdvanceNs) return {};
        return errnoError(EINVAL,
            "AdvanceTo asks for " + std::to_string((target - sourceNowNs) / 1'000'000'000)
                + " s of simulated time; the agent runs at most " + std::to_string(kMaxAdvanceNs / 1'000'000'000)
                + " s per request",
            "advance in steps of at most an hour (rdtscope-cli advances one poll interval at a time)");
    }
    case pb::Request::kStartPmu: {
        const auto& s = request.start_pmu();
        if (s.simulated() && s.sim_cycles_per_pump() > kMaxPumpCycles)
            return errnoError(EINVAL,
                "simulated cycles per pump " + std::to_string(s.sim_cycles_per_pump()) + " is more than the agent's "
                    + std::to_string(kMaxPumpCycles) + " (10^7)",
                "pump more often with fewer cycles (rdtscope-cli pumps 10^6 cycles every 50 ms)");
        return {};
    }
    case pb::Request::kExperiment:
        if (request.experiment().groups_size() > kMaxExperimentGroups)
            return errnoError(EINVAL,
                "an experiment names " + std::to_string(request.experiment().groups_size())
                    + " groups; the agent saves at most " + std::to_string(kMaxExperimentGroups));
        return {};
    case pb::Request::kPmuReport:
        if (request.pmu_report().top_n() > kMaxReportRows)
            return errnoError(EINVAL,
                "a PMU report of " + std::to_string(request.pmu_report().top_n()) + " rows per table; at most "
                    + std::to_string(kMaxReportRows));
        return {};
    default:
        return {};
    }
}

Status checkSourceRequest(const std::string& source, const std::string& scenario, const std::string& preset,
    const std::optional<protocol::PeerCredentials>& peer)
{
    auto spec = api::parseSourceSpec(source);
    if (!spec) return spec.error();
    // A path on the agent's machine (another resctrl tree, a directory for a simulated machine's registers):
    // whoever may name one may make the privileged agent read and write there.
    const bool custom = !spec->path.empty();
    if (custom && peer && peer->uid != 0)
        return errnoError(EACCES, "only root may point the agent at a path of its machine ('" + source + "')",
            "use --source resctrl, or connect as root (ssh://root@HOST)");
    if (!scenario.empty()) {
        const auto names = builtinScenarios();
        if (std::find(names.begin(), names.end(), scenario) == names.end()) {
            std::string list;
            for (const auto& n : names)
                list += (list.empty() ? "" : ", ") + n;
            return errnoError(EINVAL,
                "the agent runs built-in scenarios only, not '" + scenario + "' (it reads no file a client names)",
                "built-in scenarios: " + list + "; run a scenario file locally, without --connect");
        }
    }
    if (auto st = api::checkSimulatorOptions(*spec, scenario, preset); !st) return st.error();
    if (!preset.empty() && !sim::presetInfo(preset)) {
        std::string list;
        for (const auto& p : sim::presets())
            list += (list.empty() ? "" : ", ") + p.id;
        return errnoError(EINVAL, "unknown CPU preset '" + preset + "'", "built-in presets: " + list);
    }
    return {};
}

Result<std::vector<unsigned>> checkGroupCommand(const pb::GroupCommand& c, engine::CaptureService& service)
{
    const bool creates = c.op() == pb::GroupCommand::CREATE || c.op() == pb::GroupCommand::CREATE_MONITOR;
    if (creates)
        if (auto st = checkGroupName(c.name()); !st) return st.error();
    if (c.op() != pb::GroupCommand::CREATE)
        if (auto st = checkGroupPath(c.path()); !st) return st.error();
    if (c.op() != pb::GroupCommand::ASSIGN_TASKS && c.op() != pb::GroupCommand::ASSIGN_CPUS)
        return std::vector<unsigned> {};
    if (c.ids_size() == 0 || static_cast<std::size_t>(c.ids_size()) > kMaxIds)
        return errnoError(EINVAL,
            "an assignment needs between 1 and " + std::to_string(kMaxIds) + " ids, not "
                + std::to_string(c.ids_size()));
    // The ids are checked exactly as a user's typed list would be.
    const std::string text = formatIdList({ c.ids().begin(), c.ids().end() });
    if (c.op() == pb::GroupCommand::ASSIGN_TASKS) return parseUserPids(text);
    auto machine = service.machine();
    if (!machine) return machine.error();
    return parseUserCpus(text, machine->capabilities);
}

Status checkResctrlSetting(const pb::ResctrlSetting& s)
{
    if (s.op() == pb::ResctrlSetting::SET_CDP) return {};
    if (s.op() == pb::ResctrlSetting::ASSIGN_COUNTER || s.op() == pb::ResctrlSetting::UNASSIGN_COUNTER)
        if (auto st = checkGroupPath(s.path()); !st) return st;
    if (s.event().empty() || s.event().size() > 64)
        return errnoError(EINVAL, "an event name of 1 to 64 characters is needed", "e.g. mbm_total_bytes");
    if (s.domain() < -1 || s.domain() > 4095)
        return errnoError(EINVAL, "no L3 domain " + std::to_string(s.domain()), "domains are the mon_L3_XX ids");
    return {};
}

Result<engine::PmuRequest> checkPmuRequest(
    const pb::StartPmu& request, const std::optional<protocol::PeerCredentials>& peer)
{
    auto r = remote::fromWire(request);
    if (!r) return r.error();
    if (r->pids.size() > kMaxIds)
        return errnoError(EINVAL, "a capture attaches to at most " + std::to_string(kMaxIds) + " processes");
    if (!r->pids.empty()) {
        auto pids = parseUserPids(formatIdList({ r->pids.begin(), r->pids.end() })); // as if typed
        if (!pids) return pids.error();
    }
    if (!r->command.empty() && peer && peer->uid != 0)
        return errnoError(EACCES, "only root may make the agent launch a command ('" + r->command.front() + "')",
            "attach to a running process (--pid) or the whole machine (--system-wide), or connect as root");
    if (r->command.size() > 4096) return errnoError(EINVAL, "a command of more than 4096 arguments");
    if (r->ldlat < 1 || r->ldlat > 65535) // MSR_PEBS_LD_LAT_THRESHOLD holds 16 bits (SDM 20.3.4.4.2)
        return errnoError(EINVAL, "load latency threshold " + std::to_string(r->ldlat) + " is not in 1..65535");
    if (!(r->memoryScale >= 0.01 && r->memoryScale <= 100))
        return errnoError(EINVAL, "memory scale " + std::to_string(r->memoryScale) + " is not in 0.01..100");
    return r;
}

} // namespace rdt::agent

// SPDX-License-Identifier: GPL-3.0-or-later
#include "PodTma.h"

#include "CgroupTma.h"
#include "OwnedGroups.h"
#include "pmu/EventEncoder.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace rdt::metrics {
namespace {
std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}
}

TmaCounter podTmaCounter(std::string procRoot, std::string cgroupRoot, unsigned agentPid,
    std::function<std::unique_ptr<pmu::PerfSyscalls>()> perf, std::function<void(const std::string&)> log,
    std::function<Result<pmu::Recipe>()> recipe)
{
    struct State {
        std::string procRoot, cgroupRoot, podPrefix;
        std::function<std::unique_ptr<pmu::PerfSyscalls>()> perf;
        std::function<void(const std::string&)> log;
        std::function<Result<pmu::Recipe>()> recipe;
        std::unique_ptr<CgroupTmaCounter> counter;
        std::set<std::string> logged; ///< groups whose refusal was logged
        std::map<std::string, bool> counted; ///< cgroup directories counted since the last endRound
        bool broken = false; ///< no TMA recipe on this host: logged once for all groups
    };
    auto state = std::make_shared<State>();
    state->procRoot = std::move(procRoot);
    state->cgroupRoot = std::move(cgroupRoot);
    state->podPrefix = ownedGroupName(agentPid, "pod-");
    state->perf = std::move(perf);
    state->log = std::move(log);
    state->recipe = recipe ? std::move(recipe) : [] {
        auto enc = pmu::EventEncoder::create();
        if (!enc) return Result<pmu::Recipe>(enc.error());
        return pmu::tmaRecipe(*enc);
    };
    TmaCounter out;
    // Counters of pods gone (their groups no longer asked for) are closed after each round, so a node's pods coming
    // and going never accumulate perf events and directory descriptors.
    out.endRound = [state] {
        if (state->counter) state->counter->retain(state->counted);
        state->counted.clear();
    };
    out.count = [state](const std::string& group, const std::vector<unsigned>& tasks) -> std::optional<TmaSlots> {
        const auto once = [&](const std::string& why) {
            if (state->logged.insert(group).second)
                state->log("--metrics-tma: group " + groupLabel(group) + " is not counted: " + why);
        };
        const auto slash = group.rfind('/');
        const std::string name = slash == std::string::npos ? group : group.substr(slash + 1);
        if (name.rfind(state->podPrefix, 0) != 0) {
            once("only --monitor-pods groups have a cgroup of their own to count");
            return std::nullopt;
        }
        if (state->broken) return std::nullopt;
        std::optional<std::string> dir;
        for (unsigned pid : tasks)
            if ((dir = podCgroupDir(readText(state->procRoot + "/" + std::to_string(pid) + "/cgroup")))) break;
        if (!dir) {
            once("no task of it is in a pod's cgroup");
            return std::nullopt;
        }
        if (!state->counter) {
            auto r = state->recipe();
            if (!r) {
                state->broken = true;
                state->log("--metrics-tma: no TMA recipe on this machine: " + r.error().toString());
                return std::nullopt;
            }
            state->counter = std::make_unique<CgroupTmaCounter>(state->perf(), std::move(*r), state->cgroupRoot);
        }
        state->counted[*dir] = true;
        auto slots = state->counter->count(*dir);
        if (!slots) {
            once(slots.error().toString());
            return std::nullopt;
        }
        state->logged.erase(group);
        return *slots;
    };
    return out;
}

} // namespace rdt::metrics

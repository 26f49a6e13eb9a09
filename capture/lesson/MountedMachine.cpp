// SPDX-License-Identifier: GPL-3.0-or-later
#include "MountedMachine.h"

#include "rdt/MountType.h"
#include "sim/Scenario.h"

#include <cerrno>

namespace rdt::lesson {

namespace {

std::string howToMount(const Lesson& lesson)
{
    return "start the simulated machine and run the lesson on it: sudo rdtscope-cli sim --namespace --scenario "
        + lesson.scenario + " -- sh, then rdtscope-cli lesson " + lesson.name
        + " --follow & and the step's commands (or rdtscope-cli lesson " + lesson.name + " --check instead of sh)";
}

} // namespace

Status requireMountedMachine(const Lesson& lesson)
{
    const std::string type = mountTypeAt(kMountedMachinePath);
    if (type == "fuse.resctrl") return {};
    return errnoError(ENODEV,
        "lesson '" + lesson.name + "' runs on the simulated machine mounted at " + kMountedMachinePath + ", and "
            + (type.empty() ? std::string("nothing is mounted there") : "a '" + type + "' file system is there"),
        howToMount(lesson));
}

Status requireScenarioGroups(const Lesson& lesson, const engine::GroupsSnapshot& snapshot)
{
    auto scenario = sim::loadScenario(lesson.scenario);
    if (!scenario) return scenario.error();
    for (const auto& step : scenario->steps) {
        if (step.atNs != 0 || step.verb != "mkdir" || step.args.empty()) continue;
        bool found = false;
        for (const auto& g : snapshot.groups)
            found = found || g.info.path == step.args[0];
        if (!found)
            return errnoError(ENOENT,
                "the mounted machine has no group '" + step.args[0] + "': it does not serve scenario '"
                    + lesson.scenario + "'",
                howToMount(lesson));
    }
    return {};
}

} // namespace rdt::lesson

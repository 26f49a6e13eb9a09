// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli groups list | create NAME [--parent P] | delete NAME | assign NAME --pids LIST | --cpus LIST
#include "CmdRdtSource.h"
#include "Commands.h"
#include "rdt/GroupNames.h"
#include "rdt/UserIds.h"

#include <cstdio>

namespace rdt::cli {

namespace {
struct GroupsOptions {
    std::string verb; ///< list, create, delete or assign
    std::string name;
    SourceOptions source;
    std::string parent, pids, cpus;
};

int fail(const char* what, const Error& e)
{
    std::fprintf(stderr, "rdtscope-cli groups %s: %s\n", what, e.toString().c_str());
    return exitCodeFor(e) == ExitUnavailable ? ExitUnavailable : ExitFailure;
}

int runGroups(const GroupsOptions& o)
{
    const std::string& verb = o.verb;
    const bool needsName = verb != "list";
    // Names and PIDs passed their rules at parse time (defineGroups), before anything is opened:
    // `groups delete ../../tmp/x` fails at once, touching nothing.
    std::vector<unsigned> pids, cpuList;
    if (verb == "assign" && !o.pids.empty()) pids = *parseUserPids(o.pids);
    int code = 0;
    // Through the engine (local, or the agent's with --connect): the same checks and writes wherever it runs.
    auto service = openServiceForCli(o.source, code);
    if (!service) return code;
    engine::Engine& svc = **service;
    if (verb == "assign" && !o.cpus.empty()) {
        // CPU ids are checked against this source's machine, so the source is open first.
        auto machine = svc.machine();
        if (!machine) return fail("assign", machine.error());
        auto ids = parseUserCpus(o.cpus, machine->capabilities);
        if (!ids) {
            std::fprintf(stderr, "rdtscope-cli groups assign: %s\n", ids.error().toString().c_str());
            return ExitUsage;
        }
        cpuList = std::move(*ids);
    }
    const std::string name = needsName ? groupPathFromUser(o.name) : std::string {};

    if (verb == "list") {
        const auto snap = svc.snapshot();
        if (!snap.result.ok) return fail("list", snap.result.error());
        std::printf("%-36s %-8s %-10s %6s %8s  %s\n", "GROUP", "TYPE", "MODE", "CLOS", "TASKS", "CPUS");
        for (const auto& s : snap.groups) {
            const auto& g = s.info;
            std::printf("%-36s %-8s %-10s %6s %8s  %s\n", displayGroup(g.path).c_str(),
                g.isControl ? "control" : "monitor", g.mode.empty() ? "-" : g.mode.c_str(),
                g.closid >= 0 ? std::to_string(g.closid).c_str() : "-",
                s.taskCount ? std::to_string(*s.taskCount).c_str() : "-",
                s.cpusKnown ? (s.cpus.empty() ? "-" : formatIdList(s.cpus).c_str()) : "?");
        }
        return ExitOk;
    }
    if (verb == "create") {
        const auto r
            = o.parent.empty() ? svc.createGroup(o.name) : svc.createMonitorGroup(groupPathFromUser(o.parent), o.name);
        if (!r.ok) return fail("create", r.error());
        std::printf("created %s group %s\n", o.parent.empty() ? "control" : "monitor", o.name.c_str());
        return ExitOk;
    }
    if (verb == "delete") {
        if (const auto r = svc.deleteGroup(name); !r.ok) return fail("delete", r.error());
        std::printf("deleted %s\n", o.name.c_str());
        return ExitOk;
    }
    const auto r = pids.empty() ? svc.assignCpus(name, cpuList) : svc.assignTasks(name, pids);
    if (!r.ok) return fail("assign", r.error());
    std::printf("assigned %s %s to %s\n", pids.empty() ? "CPUs" : "PIDs",
        formatIdList(pids.empty() ? cpuList : pids).c_str(), displayGroup(name).c_str());
    return ExitOk;
}

} // namespace

CommandRun defineGroups(CLI::App& cmd)
{
    auto o = std::make_shared<GroupsOptions>();
    cmd.require_subcommand(1);
    cmd.footer("The default group is 'default'. LIST is like 0-3,8.");
    addSourceOptions(cmd, o->source);
    auto action = [&cmd, o](const char* name, const char* summary) {
        auto* sub = cmd.add_subcommand(name, summary);
        // On the action too, so they may come before or after it.
        addSourceOptions(*sub, o->source);
        sub->callback([o, name] { o->verb = name; });
        return sub;
    };
    action("list", "every group: type, mode, CLOS, task count, CPUs");
    auto* create = action("create", "a control group, or with --parent a monitor group inside one");
    const auto groupPath = checkedBy([](const std::string& name) { return checkGroupPath(groupPathFromUser(name)); });
    addPositional(*create, "NAME", o->name, "the new group's name")->required()->check(checkedBy(checkGroupName));
    create->add_option("--parent", o->parent, "create a monitor group in this control group")
        ->type_name("CONTROL_GROUP")
        ->check(groupPath);
    auto* del = action("delete", "remove a group");
    addPositional(*del, "PATH", o->name, "the group")->required()->check(groupPath);
    auto* assign = action("assign", "move tasks or CPUs into a group");
    addPositional(*assign, "PATH", o->name, "the group")->required()->check(groupPath);
    auto* what = assign->add_option_group("what");
    what->add_option("--pids", o->pids, "these processes")
        ->type_name("LIST")
        ->check(checkedBy([](const std::string& list) { return parseUserPids(list); }));
    what->add_option("--cpus", o->cpus, "these CPUs")->type_name("LIST");
    what->require_option(1);
    return [o] { return runGroups(*o); };
}

} // namespace rdt::cli

// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli groups list | create NAME [--parent P] | delete NAME | assign NAME --pids LIST | --cpus LIST |
// counter-assign / counter-unassign NAME [--event E] [--domain ID] | event-config --count LIST [--event E] [--domain
// ID]
#include "CmdRdtSource.h"
#include "Commands.h"
#include "rdt/GroupNames.h"
#include "rdt/UserIds.h"
#include "rdt/VendorFeaturesText.h"

#include <cstdio>

namespace rdt::cli {

namespace {
struct GroupsOptions {
    std::string verb; ///< list, create, delete or assign
    std::string name;
    SourceOptions source;
    std::string parent, pids, cpus;
    std::string event = "mbm_total_bytes";
    int domain = -1; ///< counter-assign/-unassign, event-config: -1 = every domain
    std::string count; ///< event-config: transaction names
};

int fail(const char* what, const Error& e)
{
    std::fprintf(stderr, "rdtscope-cli groups %s: %s\n", what, e.toString().c_str());
    return exitCodeFor(e) == ExitUnavailable ? ExitUnavailable : ExitFailure;
}

int runGroups(const GroupsOptions& o)
{
    const std::string& verb = o.verb;
    const bool needsName = verb != "list" && verb != "event-config";
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
    if (verb == "counter-assign" || verb == "counter-unassign") {
        const bool assign = verb == "counter-assign";
        if (const auto r = svc.assignCounter(name, o.event, o.domain, assign); !r.ok)
            return fail(verb.c_str(), r.error());
        std::printf("%s %s counter of %s in %s\n", assign ? "assigned" : "freed", o.event.c_str(),
            displayGroup(name).c_str(), o.domain < 0 ? "every domain" : ("domain " + std::to_string(o.domain)).c_str());
        if (auto machine = svc.machine()) {
            if (const auto free = formatFreeCounters(machine->capabilities.monitoring); !free.empty())
                std::printf("%s\n", free.c_str());
        }
        return ExitOk;
    }
    if (verb == "event-config") {
        auto mask = bmecMaskFromNames(o.count);
        if (!mask) {
            std::fprintf(stderr, "rdtscope-cli groups event-config: %s\n", mask.error().toString().c_str());
            return ExitUsage;
        }
        if (const auto r = svc.configureMbmEvent(o.event, o.domain, *mask); !r.ok)
            return fail("event-config", r.error());
        std::printf("%s now counts %s in %s\n", o.event.c_str(), o.count.c_str(),
            o.domain < 0 ? "every domain" : ("domain " + std::to_string(o.domain)).c_str());
        std::printf("note: the kernel cleared every MBM counter of %s; the next read is Unavailable and monitoring "
                    "records the restart as a reset\n",
            o.domain < 0 ? "those domains" : "that domain");
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
    for (const char* verb : { "counter-assign", "counter-unassign" }) {
        const bool on = verb[8] == 'a';
        auto* c = action(verb,
            on ? "give a group's MBM event a hardware counter (resctrl mbm_event mode, AMD ABMC)"
               : "free a group's MBM counter (its event then reads Unassigned)");
        addPositional(*c, "PATH", o->name, "the group")->required()->check(groupPath);
        c->add_option("--event", o->event, "mbm_total_bytes (default) or mbm_local_bytes")->type_name("EVENT");
        c->add_option("--domain", o->domain, "only this L3 domain (default: every domain)")->type_name("ID");
    }
    auto* config = action("event-config", "choose which memory transactions an MBM event counts (AMD BMEC)");
    config->footer("TRANSACTIONS is a comma list of: local_reads, remote_reads, local_non_temporal_writes,\n"
                   "remote_non_temporal_writes, local_reads_slow_memory, remote_reads_slow_memory,\n"
                   "dirty_victim_writes_all. The kernel clears every MBM counter of the domain on a change.");
    config->add_option("--event", o->event, "mbm_total_bytes (default) or mbm_local_bytes")->type_name("EVENT");
    config->add_option("--domain", o->domain, "only this L3 domain (default: every domain)")->type_name("ID");
    config->add_option("--count", o->count, "the transactions to count")->type_name("TRANSACTIONS")->required();
    return [o] { return runGroups(*o); };
}

} // namespace rdt::cli

// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli groups list | create NAME [--parent P] | delete NAME | assign NAME --pids LIST | --cpus LIST
#include "CmdRdtSource.h"
#include "Commands.h"
#include "rdt/GroupNames.h"
#include "rdt/UserIds.h"

#include <cstdio>

namespace rdt::cli {

namespace {
void usage()
{
    std::printf("usage: rdtscope-cli groups list\n"
                "       rdtscope-cli groups create NAME [--parent CONTROL_GROUP]   (--parent: a monitor group)\n"
                "       rdtscope-cli groups delete PATH\n"
                "       rdtscope-cli groups assign PATH --pids LIST | --cpus LIST   (LIST like 0-3,8)\n"
                "  all take --source SRC (default auto) and --scenario NAME; the default group is 'default'.\n");
}
int fail(const char* what, const Error& e)
{
    std::fprintf(stderr, "rdtscope-cli groups %s: %s\n", what, e.toString().c_str());
    return exitCodeFor(e) == ExitUnavailable ? ExitUnavailable : ExitFailure;
}
}

int cmdGroups(const std::vector<std::string>& argv)
{
    auto parsed = Args::parse(argv, { "source", "scenario", "parent", "pids", "cpus" }, { "help" });
    if (!parsed) {
        std::fprintf(stderr, "rdtscope-cli groups: %s\n", parsed.error().toString().c_str());
        return ExitUsage;
    }
    const Args& args = *parsed;
    const auto& pos = args.positionals();
    if (args.has("help") || pos.empty()) {
        usage();
        return args.has("help") ? ExitOk : ExitUsage;
    }
    const std::string verb = pos[0];
    const bool needsName = verb == "create" || verb == "delete" || verb == "assign";
    if ((verb != "list" && !needsName) || (needsName && pos.size() != 2)) {
        usage();
        return ExitUsage;
    }
    // Names are checked before anything is opened: `groups delete ../../tmp/x` fails at once, touching nothing.
    if (needsName) {
        const auto valid = verb == "create" ? checkGroupName(pos[1]) : checkGroupPath(groupPathFromUser(pos[1]));
        const auto parent = args.has("parent") ? checkGroupPath(groupPathFromUser(*args.value("parent"))) : Status {};
        for (const auto* s : { &valid, &parent })
            if (!*s) {
                std::fprintf(stderr, "rdtscope-cli groups %s: %s\n", verb.c_str(), s->error().toString().c_str());
                return ExitUsage;
            }
    }
    std::vector<unsigned> pids, cpuList;
    if (verb == "assign" && args.has("pids") == args.has("cpus")) {
        std::fprintf(stderr, "rdtscope-cli groups assign: give exactly one of --pids LIST or --cpus LIST\n");
        return ExitUsage;
    }
    if (verb == "assign" && args.has("pids")) {
        auto ids = parseUserPids(*args.value("pids"));
        if (!ids) {
            std::fprintf(stderr, "rdtscope-cli groups assign: %s\n", ids.error().toString().c_str());
            return ExitUsage;
        }
        pids = std::move(*ids);
    }
    int code = 0;
    // Through the engine (local, or the agent's with --connect): the same checks and writes wherever it runs.
    auto service = openServiceForCli(args, code);
    if (!service) return code;
    engine::Engine& svc = **service;
    if (verb == "assign" && args.has("cpus")) {
        // CPU ids are checked against this source's machine, so the source is open first.
        auto machine = svc.machine();
        if (!machine) return fail("assign", machine.error());
        auto ids = parseUserCpus(*args.value("cpus"), machine->capabilities);
        if (!ids) {
            std::fprintf(stderr, "rdtscope-cli groups assign: %s\n", ids.error().toString().c_str());
            return ExitUsage;
        }
        cpuList = std::move(*ids);
    }
    const std::string name = needsName ? groupPathFromUser(pos[1]) : std::string {};

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
        const auto r = args.has("parent") ? svc.createMonitorGroup(groupPathFromUser(*args.value("parent")), pos[1])
                                          : svc.createGroup(pos[1]);
        if (!r.ok) return fail("create", r.error());
        std::printf("created %s group %s\n", args.has("parent") ? "monitor" : "control", pos[1].c_str());
        return ExitOk;
    }
    if (verb == "delete") {
        if (const auto r = svc.deleteGroup(name); !r.ok) return fail("delete", r.error());
        std::printf("deleted %s\n", pos[1].c_str());
        return ExitOk;
    }
    const auto r = pids.empty() ? svc.assignCpus(name, cpuList) : svc.assignTasks(name, pids);
    if (!r.ok) return fail("assign", r.error());
    std::printf("assigned %s %s to %s\n", pids.empty() ? "CPUs" : "PIDs",
        formatIdList(pids.empty() ? cpuList : pids).c_str(), displayGroup(name).c_str());
    return ExitOk;
}

} // namespace rdt::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Commands.h"

#include <cstdio>

namespace rdt::cli {

// One declaration and one table row per command; each command's options and code live in Cmd<Name>.cpp.
CommandRun defineInfo(CLI::App& cmd);
CommandRun defineMonitor(CLI::App& cmd);
CommandRun defineAlloc(CLI::App& cmd);
CommandRun defineGroups(CLI::App& cmd);
CommandRun defineRecord(CLI::App& cmd);
CommandRun defineReplay(CLI::App& cmd);
CommandRun defineSummary(CLI::App& cmd);
CommandRun defineExport(CLI::App& cmd);
CommandRun defineReport(CLI::App& cmd);
CommandRun defineImport(CLI::App& cmd);
CommandRun definePmu(CLI::App& cmd);
CommandRun defineSim(CLI::App& cmd);
CommandRun defineCompare(CLI::App& cmd);
CommandRun defineSweep(CLI::App& cmd);
CommandRun defineAdvise(CLI::App& cmd);
CommandRun defineBlame(CLI::App& cmd);
CommandRun defineProtect(CLI::App& cmd);
CommandRun defineLesson(CLI::App& cmd);
CommandRun defineSelftest(CLI::App& cmd);

const std::vector<Command>& commands()
{
    static const std::vector<Command> table = {
        { "info", "RDT/PMU capabilities, with CPUID origin and why-not", defineInfo, true },
        { "monitor", "LLC occupancy and memory bandwidth per group", defineMonitor, true },
        { "alloc", "cache/bandwidth allocation: show it, or set a group's schemata", defineAlloc, true },
        { "groups", "RDT groups: list, create, delete, assign tasks or CPUs", defineGroups, true },
        { "record", "record a session file", defineRecord, true },
        { "replay", "play a session back, printed like monitor", defineReplay },
        { "summary", "machine, source, duration, groups, sample counts, allocation changes of a session",
            defineSummary },
        { "export", "a session's data as CSV or JSON", defineExport },
        { "report", "branch graph or load-latency tables of a perf.data file", defineReport },
        { "import", "read a perf.data file, optionally into a session file", defineImport },
        { "pmu", "TMA, LBR call edges, load latency", definePmu, true },
        { "sim", "run the simulated machine and print what its resctrl reports", defineSim },
        { "diff", "compare two sessions or perf.data files", defineCompare },
        { "sweep", "step a group's cache ways or bandwidth cap, measure each step, find the knee", defineSweep, true },
        { "advise", "sweep groups alone and propose cache masks for all of them (lookahead)", defineAdvise, true },
        { "blame", "name the group that hurts a victim's cache or bandwidth, and test it with a fence", defineBlame,
            true },
        { "protect", "hold a group's target by moving best-effort ways and bandwidth; --compare policies",
            defineProtect, true },
        { "lesson", "guided exercises on the simulated machine: list, show, or --check one", defineLesson },
        { "selftest", "check resctrl against resctrl.rst and the SDM: PASS/FAIL/SKIP per check", defineSelftest },
    };
    return table;
}

int damagedInputExit(const char* command, const std::string& file, const std::string& damage, bool salvage)
{
    if (damage.empty()) return ExitOk;
    std::fflush(stdout);
    std::fprintf(stderr, "rdtscope-cli %s: %s is damaged: %s; %s\n", command, file.c_str(), damage.c_str(),
        salvage ? "what was readable is shown (--salvage)"
                : "what was readable is shown above (--salvage accepts it and exits 0)");
    return salvage ? ExitOk : ExitFailure;
}

} // namespace rdt::cli

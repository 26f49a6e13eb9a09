// SPDX-License-Identifier: GPL-3.0-or-later
#include "Commands.h"

#include <cstdio>

namespace rdt::cli {

// One declaration and one table row per command; each command's code lives in Cmd<Name>.cpp.
int cmdInfo(const std::vector<std::string>& args);
int cmdMonitor(const std::vector<std::string>& args);
int cmdAlloc(const std::vector<std::string>& args);
int cmdGroups(const std::vector<std::string>& args);
int cmdRecord(const std::vector<std::string>& args);
int cmdReplay(const std::vector<std::string>& args);
int cmdSummary(const std::vector<std::string>& args);
int cmdExport(const std::vector<std::string>& args);
int cmdReport(const std::vector<std::string>& args);
int cmdImport(const std::vector<std::string>& args);
int cmdPmu(const std::vector<std::string>& args);
int cmdSim(const std::vector<std::string>& args);
int cmdCompare(const std::vector<std::string>& args);

const std::vector<Command>& commands()
{
    static const std::vector<Command> table = {
        { "info",
            "info [--cpuid-dump FILE] [--sysfs DIR] [--json]  RDT/PMU capabilities, with CPUID origin and why-not",
            cmdInfo },
        { "monitor",
            "monitor [--source SRC] [--scenario NAME] [--interval MS] [--duration S] [--csv] [--at T:GROUP:SCHEMATA]  "
            "LLC occupancy and memory bandwidth per group",
            cmdMonitor, true },
        { "alloc", "alloc show | alloc set --group NAME 'L3:0=ff0;1=ff0' [--source SRC]  cache/bandwidth allocation",
            cmdAlloc, true },
        { "groups", "groups list|create NAME [--parent P]|delete NAME|assign NAME --pids LIST|--cpus LIST  RDT groups",
            cmdGroups, true },
        { "record",
            "record -o FILE [--source SRC] [--scenario NAME] [--duration S] [--interval MS]  record a session file",
            cmdRecord, true },
        { "replay",
            "replay FILE [--speed X|max] [--csv] [--from S] [--to S]  play a session back, printed like monitor",
            cmdReplay },
        { "summary", "summary FILE  machine, source, duration, groups, sample counts, allocation changes of a session",
            cmdSummary },
        { "export", "export FILE --csv|--json [--from S] [--to S] [-o OUT]  a session's data as CSV or JSON",
            cmdExport },
        { "report", "report FILE --lbr|--mem [--symfs DIR]  branch graph or load-latency tables of a perf.data file",
            cmdReport },
        { "import", "import FILE [--symfs DIR] [-o SESSION]  read a perf.data file, optionally into a session file",
            cmdImport },
        { "pmu",
            "pmu tma|lbr|mem [--source perf|sim] [--pid N | -- COMMAND] [--duration S]  TMA, LBR call edges, load "
            "latency",
            cmdPmu },
        { "sim",
            "sim [--list] [--scenario NAME|FILE] [--sim-cpuid FILE|--preset ID] [--seconds N] [--describe] "
            "[--realtime]  "
            "run the simulated machine and print what its resctrl reports",
            cmdSim },
        { "diff",
            "diff A B [--window A:FROM..TO] [--between-markers M1,M2] [--normalize duration|instructions] "
            "[--csv|--json]  "
            "compare two sessions or perf.data files",
            cmdCompare },
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

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Commands.h"

namespace rdt::cli {

// One declaration and one table row per command; each command's code lives in Cmd<Name>.cpp.
int cmdInfo(const std::vector<std::string>& args);
int cmdMonitor(const std::vector<std::string>& args);
int cmdAlloc(const std::vector<std::string>& args);
int cmdGroups(const std::vector<std::string>& args);

const std::vector<Command>& commands()
{
    static const std::vector<Command> table = {
        { "info", "info [--cpuid-dump FILE] [--sysfs DIR] [--json]  RDT/PMU capabilities, with CPUID origin and why-not",
            cmdInfo },
        { "monitor", "monitor [--source SRC] [--scenario NAME] [--interval MS] [--duration S] [--csv] [--at T:GROUP:SCHEMATA]  "
                     "LLC occupancy and memory bandwidth per group",
            cmdMonitor },
        { "alloc", "alloc show | alloc set --group NAME 'L3:0=ff0;1=ff0' [--source SRC]  cache/bandwidth allocation",
            cmdAlloc },
        { "groups", "groups list|create NAME [--parent P]|delete NAME|assign NAME --pids LIST|--cpus LIST  RDT groups",
            cmdGroups },
    };
    return table;
}

} // namespace rdt::cli

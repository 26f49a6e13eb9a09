// SPDX-License-Identifier: GPL-3.0-or-later
#include "Commands.h"

namespace rdt::cli {

// One declaration and one table row per command; each command's code lives in Cmd<Name>.cpp.
int cmdPmu(const std::vector<std::string>& args);

const std::vector<Command>& commands()
{
    static const std::vector<Command> table = {
        { "pmu", "pmu tma|lbr|mem [--source perf|sim] [--pid N | -- COMMAND] [--duration S]  TMA, LBR call edges, load latency", cmdPmu },
    };
    return table;
}

} // namespace rdt::cli

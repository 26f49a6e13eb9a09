// SPDX-License-Identifier: GPL-3.0-or-later
#include "Commands.h"

namespace rdt::cli {

// One declaration and one table row per command; each command's code lives in Cmd<Name>.cpp.
int cmdInfo(const std::vector<std::string>& args);

const std::vector<Command>& commands()
{
    static const std::vector<Command> table = {
        { "info", "info [--cpuid-dump FILE] [--sysfs DIR] [--json]  RDT/PMU capabilities, with CPUID origin and why-not",
            cmdInfo },
    };
    return table;
}

} // namespace rdt::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#include "CmdSessionCreate.h"

#include "CmdRdtSource.h"
#include "Commands.h"

namespace rdt::cli {

engine::SessionOrigin cliSessionOrigin(const std::string& command)
{
    engine::SessionOrigin origin;
    origin.toolVersion = RDTSCOPE_VERSION;
    origin.commandLine = "rdtscope-cli " + command;
    if (!connectUrl().empty()) origin.commandLine += " --connect " + connectUrl();
    for (const auto& a : commandArguments())
        origin.commandLine += " " + a;
    return origin;
}

} // namespace rdt::cli

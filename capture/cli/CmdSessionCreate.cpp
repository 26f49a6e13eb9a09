// SPDX-License-Identifier: GPL-3.0-or-later
#include "CmdSessionCreate.h"

#include "CmdRdtSource.h"
#include "Commands.h"
#include "experiment/SweepRecording.h"

namespace rdt::cli {

experiment::SessionOrigin cliSessionOrigin(const std::string& command)
{
    experiment::SessionOrigin origin;
    origin.toolVersion = RDTSCOPE_VERSION;
    origin.commandLine = "rdtscope-cli " + command;
    if (!connectUrl().empty()) origin.commandLine += " --connect " + connectUrl();
    for (const auto& a : commandArguments())
        origin.commandLine += " " + a;
    return origin;
}

Result<std::unique_ptr<session::SessionWriter>> createSessionForCli(engine::Engine& engine,
    const engine::MachineDescription& machineInfo, const std::string& path, std::uint64_t intervalNs, bool overwrite,
    const std::string& command, std::uint64_t startNs)
{
    return experiment::createEngineSession(
        engine, machineInfo, path, intervalNs, overwrite, cliSessionOrigin(command), startNs);
}

} // namespace rdt::cli

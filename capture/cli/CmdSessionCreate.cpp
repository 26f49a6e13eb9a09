// SPDX-License-Identifier: GPL-3.0-or-later
#include "CmdSessionCreate.h"

#include "CmdRdtSource.h"
#include "Commands.h"
#include "core/Time.h"
#include "rdt/CapabilitiesText.h"

namespace rdt::cli {

Result<std::unique_ptr<session::SessionWriter>> createSessionForCli(engine::Engine& engine,
    const engine::MachineDescription& machineInfo, const std::string& path, std::uint64_t intervalNs, bool overwrite,
    const std::string& command, std::uint64_t startNs)
{
    const engine::SourceDescription& source = engine.source();
    const bool sim = !source.simulation.empty(); // a simulated machine runs behind the source
    session::SessionMeta meta;
    meta.startWallNs = wallClockNs();
    meta.host = machineInfo.hostname;
    meta.kernel = machineInfo.kernel;
    meta.source = source.kind + (sim ? ":" + source.scenario : std::string());
    meta.simulated = source.simulated;
    meta.toolVersion = RDTSCOPE_VERSION;
    meta.commandLine = "rdtscope-cli " + command;
    if (!connectUrl().empty()) meta.commandLine += " --connect " + connectUrl();
    for (const auto& a : commandArguments())
        meta.commandLine += " " + a;
    meta.scenario = sim ? source.scenario : std::string();
    meta.intervalNs = intervalNs;
    meta.timeIsSimulated = sim;
    session::MachineInfo machine;
    machine.description = sim ? source.simulation : source.backend;
    machine.topology = formatCapabilitiesText(machineInfo.capabilities);
    machine.cpuidJson = machineInfo.cpuidJson; // the simulated CPU's is labelled simulated in meta
    meta.startMonoNs = startNs;
    session::WriterOptions wopt;
    wopt.overwrite = overwrite;
    return session::SessionWriter::create(path, meta, machine, wopt);
}

} // namespace rdt::cli

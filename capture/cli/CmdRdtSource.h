// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Options.h"
#include "engine/Engine.h"
#include "rdt/RdtSource.h"

#include <memory>
#include <string>
#include <vector>

namespace rdt::cli {

/// Options every RDT command takes: `--source SRC` (default auto) and `--scenario NAME` (sim sources).
struct SourceOptions {
    std::string source = "auto";
    std::string scenario; ///< "" = not named: the default scenario on simulated sources
    std::string preset; ///< `--preset ID`: the simulated CPU instead of the scenario's (sim only)
    bool sncNodes = false; ///< SNC machines: one reading per sub-NUMA node (ServiceOptions::sncNodeSamples)
};
/// Declares --source and --scenario on `cmd`, into `o`.
void addSourceOptions(CLI::App& cmd, SourceOptions& o);

/// The global `--connect URL` (rdtscope-cli --connect ssh://root@srv monitor ...): commands that run through the
/// engine then run on the agent at URL. Empty = the engine runs in this process.
void setConnectUrl(std::string url);
const std::string& connectUrl();
/// The global `--agent PATH`: where rdtscope-agent is on the server ("" = searched for).
void setRemoteAgentPath(std::string path);

/// The capture engine over the source the options name, announced on stderr (which source and why, that data is
/// simulated, warnings about other RDT users): a local
/// CaptureService, or with --connect the agent's (remote/RemoteEngine.h), named first. The same calls, results
/// and printing follow either way. `who` names the applier in allocation events ("cli"; an agent names itself).
Result<std::unique_ptr<engine::Engine>> openServiceForCli(
    const SourceOptions& options, int& exitCode, const std::string& who = "cli");

/// The capture engine for PMU captures only (no RDT source is opened): a local CaptureService, or with --connect
/// the agent's, announced on stderr as openServiceForCli does.
Result<std::unique_ptr<engine::Engine>> openPmuEngineForCli(int& exitCode);

/// Exit code for an engine error: 3 for "not available here" errnos, 1 otherwise.
int exitCodeFor(const Error& e);

/// "default" -> ""; other names unchanged.
std::string groupPathFromUser(const std::string& name);

/// A user's schemata text from several arguments, each may hold several lines ("\n" or a literal "\\n"); parse it
/// with rdt::parseUserSchemata (rdt/UserSchemata.h) once the capabilities are known.
std::string userSchemataText(const std::vector<std::string>& parts);

} // namespace rdt::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/Engine.h"
#include "experiment/SweepRecording.h"
#include "session/SessionWriter.h"

#include <cstdint>
#include <memory>
#include <string>

namespace rdt::cli {

/// Who made a session from the CLI: "rdtscope-cli COMMAND [--connect URL] ARGS..." and this release.
experiment::SessionOrigin cliSessionOrigin(const std::string& command);

/// A new session file for `command` ("record", "sweep"), described as every rdtscope-cli session is: the engine's
/// host, kernel and source in meta, the command line as typed, the machine (capabilities, CPUID snapshot; the
/// simulated CPU's for simulated sources), simulated time for simulated sources. The time axis starts at `startNs`
/// (the engine's clock). One implementation with the GUI's: experiment::createEngineSession.
Result<std::unique_ptr<session::SessionWriter>> createSessionForCli(engine::Engine& engine,
    const engine::MachineDescription& machine, const std::string& path, std::uint64_t intervalNs, bool overwrite,
    const std::string& command, std::uint64_t startNs);

} // namespace rdt::cli

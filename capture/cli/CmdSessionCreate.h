// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/EngineRecorder.h"

#include <string>

namespace rdt::cli {

/// Who made a session from the CLI: "rdtscope-cli COMMAND [--connect URL] ARGS..." and this release.
engine::SessionOrigin cliSessionOrigin(const std::string& command);

} // namespace rdt::cli

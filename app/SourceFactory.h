// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AppOptions.h"
#include "SourceBundle.h"

#include "core/Result.h"

#include <memory>

/// Opens the data source the options ask for: a replay (--open), an RDT source by spec (--source, with the
/// scenario for the simulated machine), in this process or on an agent (--connect). Errors say what is missing
/// and how to fix it.
rdt::Result<SourceBundle> openSource(const AppOptions& options);
/// The source on the agent at options.connect (docs/PROTOCOL.md), blocking until it answers or fails.
rdt::Result<SourceBundle> openConnectedSource(const AppOptions& options);

namespace rdt::engine {
class Engine;
}
/// A PMU-only engine on the agent at options.connect (its own connection: the PMU pages pump it on the GUI thread,
/// independently of the RDT source's). Blocks until the agent answers or fails.
rdt::Result<std::shared_ptr<rdt::engine::Engine>> openConnectedPmuEngine(const AppOptions& options);

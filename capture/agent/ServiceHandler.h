// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ClientSession.h"

#include <memory>

namespace rdt::agent {

/// The handler that serves a client's requests: Ping for now; the engine's commands (engine/CaptureService.h)
/// are not carried over the protocol yet and are answered with an error that says so.
std::unique_ptr<RequestHandler> makeServiceHandler(const AgentContext& context);

} // namespace rdt::agent

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ClientSession.h"

#include <memory>

namespace rdt::agent {

/// The handler that serves one client the capture engine (engine/CaptureService.h) as docs/PROTOCOL.md "Engine
/// commands" describes: one CaptureService per client session, opened by OpenSource; every command answered
/// with the engine's result value; sample batches, allocation changes, simulation events and background errors
/// forwarded as events. The service and its sampler end with the session.
std::unique_ptr<RequestHandler> makeServiceHandler(
    const AgentContext& context, const std::optional<protocol::PeerCredentials>& peer);

} // namespace rdt::agent

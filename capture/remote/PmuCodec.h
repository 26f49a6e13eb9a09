// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The capture service's PMU data (engine/PmuTypes.h) to the agent protocol's messages and back (docs/PROTOCOL.md
// "PMU captures"). The agent's ServiceHandler encodes answers and decodes requests; RemoteEngine the other way.
// Decoding never trusts the peer: unknown enum values are refused, sizes that do not fit are errors.

#include "agent.pb.h"
#include "engine/EngineTypes.h"
#include "engine/PmuTypes.h"

namespace rdt::remote {

namespace pb = rdtscope::agent::v1;

void toWire(const engine::PmuRequest& in, pb::StartPmu& out);
Result<engine::PmuRequest> fromWire(const pb::StartPmu& in);

/// The started capture's description and failure kind (the result itself travels in Response.error).
void toWire(const engine::PmuStarted& in, pb::PmuStarted& out);
engine::PmuStarted startedOf(const pb::Response& in);

/// A capture started on the engine (EngineEvent), without the command line a launched command had.
void toWire(const engine::PmuCaptureStarted& in, pb::PmuCaptureStarted& out);
Result<engine::PmuCaptureStarted> fromWire(const pb::PmuCaptureStarted& in);

void toWire(const engine::PmuBatch& in, pb::PmuBatch& out);
engine::PmuBatch fromWire(const pb::PmuBatch& in);

void toWire(const engine::PmuReport& in, pb::PmuReport& out);
Result<engine::PmuReport> fromWire(const pb::PmuReport& in);

} // namespace rdt::remote

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The capture service's plain data (engine/EngineTypes.h) to the agent protocol's messages and back
// (docs/PROTOCOL.md "Engine commands"). Both ends use it: the agent's ServiceHandler encodes, RemoteEngine decodes.
// Decoding never trusts the peer: schemata text is parsed with the same strict parser as user input.

#include "agent.pb.h"
#include "engine/EngineTypes.h"

#include <optional>

namespace rdt::remote {

namespace pb = rdtscope::agent::v1;

void toWire(const engine::SourceDescription& in, pb::SourceDescription& out);
engine::SourceDescription fromWire(const pb::SourceDescription& in);

void toWire(const engine::GroupsSnapshot& in, pb::GroupsSnapshot& out);
/// A snapshot's groups; a schemata text the parser refuses becomes an error result (the agent sent nonsense).
engine::GroupsSnapshot fromWire(const pb::GroupsSnapshot& in);

void toWire(const engine::AllocationResult& in, pb::AllocationApplied& out);

/// A command's outcome into a response: ok leaves `error` unset and copies the notes; a failure sets it.
void toWire(const engine::CommandResult& in, pb::Response& out);
/// The outcome a response carries (error value with its errno-style code, or success with its notes).
engine::CommandResult resultOf(const pb::Response& in);
/// The whole allocation answer: the outcome plus what was applied, whether it rolled back, and the changes.
engine::AllocationResult allocationOf(const pb::Response& in);

void toWire(const engine::GroupPmuCounts& in, pb::GroupPmuCounts& out);
engine::GroupPmuCounts fromWire(const pb::GroupPmuCounts& in);

/// Every engine event except sample batches (those travel as RdtSampleBatch through the connection's encoder).
/// Returns false for a sample batch.
bool toWire(const engine::EngineEvent& in, pb::Event& out);
/// An event back; std::nullopt for kinds this side does not know (a newer agent) and for sample batches.
std::optional<engine::EngineEvent> fromWire(const pb::Event& in);

} // namespace rdt::remote

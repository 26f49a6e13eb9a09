// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The machine description `rdtscope-cli info` prints (platform/CapabilityReport.h) to the agent protocol's
// MachineReport and back (docs/PROTOCOL.md "Engine commands", DescribeMachine). Decoding bounds what a peer sends.

#include "agent.pb.h"
#include "core/Result.h"
#include "platform/CapabilityReport.h"

namespace rdt::remote {

namespace pb = rdtscope::agent::v1;

void toWire(const CapabilityReport& in, pb::MachineReport& out);
/// At most 10,000 lines (a real report has about a hundred); more is a malformed answer.
Result<CapabilityReport> fromWire(const pb::MachineReport& in);

} // namespace rdt::remote

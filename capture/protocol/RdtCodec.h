// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agent.pb.h"
#include "rdt/RdtBackend.h"
#include "rdt/Sample.h"
#include "rdt/SimulationControl.h"

namespace rdt::protocol {

namespace pb = rdtscope::agent::v1;

/// Engine values to their wire messages and back. Decoding never fails: protobuf already bounded the sizes (the
/// frame limit), and the meaning of every field is checked where it is used, as for local values.
void toWire(const Capabilities& in, pb::Capabilities& out);
Capabilities fromWire(const pb::Capabilities& in);
void toWire(const GroupInfo& in, pb::GroupInfo& out);
GroupInfo fromWire(const pb::GroupInfo& in);
void toWire(const AllocationChanged& in, pb::AllocationChanged& out);
AllocationChanged fromWire(const pb::AllocationChanged& in);
void toWire(const SimulationEvent& in, pb::SimulationEvent& out);
SimulationEvent fromWire(const pb::SimulationEvent& in);

} // namespace rdt::protocol

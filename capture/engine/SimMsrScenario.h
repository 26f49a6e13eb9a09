// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/RdtSource.h"

namespace rdt {

/// `sim-msr` for a scenario file: the scenario's machine (preset or dump, overrides, topology) with the MSR
/// backend over SimMsrSpace, and the scenario's steps translated to what the MSR protocol can do (mkdir ->
/// CLOS/RMID group, thread group=G cpu=N -> the thread on CPU N and CPU N in G, write G/schemata -> masks and
/// delays). Timed steps run between ticks, outside the machine's lock.
Result<RdtSource> openSimMsrScenario(const std::string& scenario);

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/RdtSource.h"

namespace rdt {

/// `sim-msr` for a scenario file: the scenario's machine (preset or dump, overrides, topology) with the MSR
/// backend over SimMsrSpace, and the scenario's steps translated to what the MSR protocol can do (mkdir ->
/// CLOS/RMID group, thread group=G cpu=N -> the thread on CPU N and CPU N in G, write G/schemata -> masks and
/// delays). Timed steps run between ticks, outside the machine's lock.
/// With `keepDir` (`--source sim-msr:DIR`) the machine's registers live on in DIR between processes
/// (PersistedMsrSpace) and the backend keeps its group names in DIR/msr-state, as /run/rdtscope/msr-state does on
/// real hardware; a scenario group that an earlier run made already is kept, not made again.
/// `setupOnly` drops the scenario's timed steps (a lesson's student makes those changes).
Result<RdtSource> openSimMsrScenario(
    const std::string& scenario, const std::string& keepDir = {}, bool setupOnly = false);

} // namespace rdt

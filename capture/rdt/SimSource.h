// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrBackend.h"
#include "RdtSource.h"

namespace rdt {

/// `sim` (ResctrlBackend over SimResctrlFs) and `sim-msr` (MsrBackend over SimMsrSpace) for a scenario.
/// Implemented over capture/sim when it is built in (RDTSCOPE_HAVE_SIM), otherwise it says so.
Result<RdtSource> openSimSource(const std::string& spec, const std::string& scenario);
/// `msr`: MsrBackend over DevMsr with the live CPUID (capture/platform), refusing while resctrl is mounted.
Result<RdtSource> openMsrSource(const RdtSourceOptions& options);

namespace sim {
class SimMachine;
}
/// What the MSR backend needs, from the simulated machine's enumeration (only with RDTSCOPE_HAVE_SIM).
MsrRdtEnumeration msrEnumerationOf(const sim::SimMachine& machine);

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimSource.h"

#include <cerrno>

namespace rdt {

// UNFINISHED: wire capture/sim (SimResctrlFs, SimMsrSpace, scenarios) and capture/platform (DevMsr, CpuidSource)
// here once those branches are merged.
Result<RdtSource> openSimSource(const std::string& spec, const std::string& scenario)
{
    return errnoError(ENOSYS, "source '" + spec + "' (scenario " + scenario + ") is not available in this build",
        "the simulator (capture/sim) is not built in yet");
}

Result<RdtSource> openMsrSource(const RdtSourceOptions&)
{
    return errnoError(ENOSYS, "source 'msr' is not available in this build",
        "the MSR device layer (capture/platform DevMsr) is not built in yet");
}

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
// The machine the service runs on, described as `rdtscope-cli info` describes it: so `info --connect URL` prints the
// agent's machine with the same code and in the same format as the local command.
#include "CaptureService.h"

#include "platform/LiveCpuid.h"

namespace rdt::engine {

Result<CapabilityReport> CaptureService::describeMachine()
{
    LiveCpuid cpuid;
    const CpuFeatures features = decodeCpuFeatures(cpuid);
    const EnvironmentProbe env = probeEnvironment("/", features.identity.hypervisor);
    auto topology = readTopology("/sys");
    return buildCapabilityReport(features, &env, topology ? &*topology : nullptr);
}

} // namespace rdt::engine

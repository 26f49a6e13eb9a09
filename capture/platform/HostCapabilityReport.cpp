// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/HostCapabilityReport.h"

#include "platform/CoreTypeView.h"
#include "platform/Environment.h"
#include "platform/LiveCpuid.h"
#include "platform/Topology.h"

namespace rdt {

CapabilityReport hostCapabilityReport()
{
    LiveCpuid cpuid;
    const CpuFeatures features = decodeCpuFeatures(cpuid);
    const EnvironmentProbe env = probeEnvironment("/", features.identity.hypervisor);
    auto topology = readTopology("/sys");
    CapabilityReport report = buildCapabilityReport(features, &env, topology ? &*topology : nullptr);
    if (features.hybrid.hybrid) appendCoreTypeLines(liveCoreTypeViews(), report);
    return report;
}

} // namespace rdt

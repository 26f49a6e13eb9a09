// SPDX-License-Identifier: GPL-3.0-or-later
#include "MachineDescription.h"

#include "platform/CapabilityReport.h"
#include "platform/CoreTypeView.h"
#include "platform/CpuidDump.h"
#include "platform/LiveCpuid.h"

#include <memory>
#include <optional>

namespace {
QString q(const std::string& s)
{
    return QString::fromStdString(s);
}
}

MachineDescription machineFromReport(const rdt::CapabilityReport& report)
{
    MachineDescription d;
    d.cpuidSource = q(report.source);
    d.rdtWhyNot = q(report.rdtWhyNot);
    d.rows.reserve(static_cast<qsizetype>(report.lines.size()));
    for (const auto& line : report.lines)
        d.rows.append({ q(line.group), q(line.name), q(line.value), line.present, q(line.origin), q(line.sdmSection),
            q(line.whyNot) });
    return d;
}

rdt::Result<MachineDescription> describeMachine(const QString& cpuidDumpPath)
{
    std::unique_ptr<rdt::CpuidSource> source;
    if (!cpuidDumpPath.isEmpty()) {
        auto table = rdt::loadCpuidDump(cpuidDumpPath.toStdString());
        if (!table) return table.error();
        source = std::make_unique<rdt::CpuidTable>(std::move(table.value()));
    } else {
        source = std::make_unique<rdt::LiveCpuid>();
    }
    const rdt::CpuFeatures features = rdt::decodeCpuFeatures(*source);
    std::optional<rdt::EnvironmentProbe> env;
    std::optional<rdt::Topology> topology;
    if (cpuidDumpPath.isEmpty()) {
        env = rdt::probeEnvironment("/", features.identity.hypervisor);
        if (auto t = rdt::readTopology("/sys")) topology = std::move(t.value());
    }
    auto report = rdt::buildCapabilityReport(features, env ? &*env : nullptr, topology ? &*topology : nullptr);
    // A hybrid part (dump or this machine): one line per core type (P-core, E-core) from its CPUs' leaves 1AH and
    // 23H, as `info` prints them (SDM 22.2.9: leaf 0AH gives only the common set).
    if (features.hybrid.hybrid) rdt::appendCoreTypeLines(rdt::coreTypeViewsOf(cpuidDumpPath.toStdString()), report);
    return machineFromReport(report);
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "MachineDescription.h"

#include "api/MachineReport.h"
#include "platform/CapabilityReport.h"
#include "platform/CoreTypeView.h"
#include "platform/CpuidDump.h"
#include "platform/HostCapabilityReport.h"
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

MachineDescription machineFromReport(const rdt::api::MachineReport& report)
{
    MachineDescription d;
    d.cpuidSource = q(report.linesFrom);
    d.rdtWhyNot = q(report.rdt.whyNot);
    d.rows.reserve(static_cast<qsizetype>(report.lines.size()));
    for (const auto& line : report.lines)
        d.rows.append({ q(line.group), q(line.name), q(line.value), line.present, q(line.origin), q(line.sdmSection),
            q(line.whyNot) });
    return d;
}

rdt::Result<MachineDescription> describeMachine(const QString& cpuidDumpPath)
{
    if (cpuidDumpPath.isEmpty()) return machineFromReport(rdt::hostCapabilityReport()); // as `info` and agents do
    auto table = rdt::loadCpuidDump(cpuidDumpPath.toStdString());
    if (!table) return table.error();
    const rdt::CpuFeatures features = rdt::decodeCpuFeatures(*table);
    auto report = rdt::buildCapabilityReport(features, nullptr, nullptr);
    // A hybrid dump: one line per core type (P-core, E-core) from its CPUs' leaves 1AH and 23H, as `info` prints
    // them (SDM 22.2.9: leaf 0AH gives only the common set).
    if (features.hybrid.hybrid) rdt::appendCoreTypeLines(rdt::coreTypeViews(cpuidDumpPath.toStdString()), report);
    return machineFromReport(report);
}

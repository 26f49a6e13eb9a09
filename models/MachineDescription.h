// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MachineModel.h"

#include "core/Result.h"

#include <QList>
#include <QString>

namespace rdt {
struct CapabilityReport;
namespace api {
struct MachineReport;
}
}

/// What the Machine panel shows: the capability lines plus where CPUID came from and why RDT is unusable.
struct MachineDescription {
    QString cpuidSource; ///< "CPUID instruction (live)", "AIDA64 dump skx.txt, logical CPU #0"
    QString rdtWhyNot; ///< "" when RDT is usable here
    QList<CapabilityRow> rows;
};

/// Converts the platform's report (the exact list `rdtscope-cli info` prints) for the panel.
MachineDescription machineFromReport(const rdt::CapabilityReport& report);
/// The same from an engine's report (api/MachineReport.h): an agent's machine as its engine describes it.
MachineDescription machineFromReport(const rdt::api::MachineReport& report);

/// Decodes this machine (live CPUID, environment probe, sysfs topology) or, with a dump path, another CPU's dump
/// (no environment or topology then, as `rdtscope-cli info --cpuid-dump` does).
rdt::Result<MachineDescription> describeMachine(const QString& cpuidDumpPath = {});

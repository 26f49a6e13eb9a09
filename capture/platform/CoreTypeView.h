// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/CapabilityReport.h"
#include "platform/CpuFeatures.h"
#include "platform/CpuidSource.h"

#include <string>
#include <utility>
#include <vector>

namespace rdt {

/// One core type of a hybrid part (CPUID.1AH:EAX[31:24]) as its first logical CPU in a dump describes it: leaves
/// 04H and 23H differ per core type, and 0AH gives only the common set (SDM Vol. 3B 22.2.9.2).
struct CoreTypeView {
    std::string coreType; ///< "P-core", "E-core", "core type 10H", or "unknown" without leaf 1AH
    std::vector<unsigned> cpus; ///< the dump's logical CPUs of this type
    CpuFeatures features; ///< decoded from the first of them
};

/// The core types of every logical CPU of a multi-CPU dump, in order of first appearance. Reads CPUs #0, #1, ... up
/// to `maxCpus` until the dump has no next one. Empty when the dump's CPU #0 is not hybrid.
std::vector<CoreTypeView> coreTypeViews(const std::string& dumpPath, unsigned maxCpus = 4096);

/// The same for this machine: the CPUID instruction executed on each logical CPU this process may run on (a thread
/// pinned to each in turn), since leaves 04H, 1AH and 23H answer for the CPU that executes them (SDM 22.2.9).
/// Empty when the first such CPU is not hybrid or the instruction is not available.
std::vector<CoreTypeView> liveCoreTypeViews();

/// This machine's CPUID answers per logical CPU this process may run on, read by a thread pinned to each in turn; with
/// `keepGoing`, stops after the first CPU when it returns false. Empty when the instruction is not available.
std::vector<std::pair<unsigned, CpuidTable>> liveCpuidPerCpu(bool (*keepGoing)(const CpuidTable& first) = nullptr);

/// Either of the two: the dump's CPUs, or this machine's when `dumpPath` is empty.
std::vector<CoreTypeView> coreTypeViewsOf(const std::string& dumpPath);

/// Adds a "Core types" group to the report: one line per core type with its CPUs and its own counter counts,
/// Topdown slots and TMA slots per cycle (what `info` and `info --json` show for a hybrid dump).
void appendCoreTypeLines(const std::vector<CoreTypeView>& views, CapabilityReport& report);

} // namespace rdt

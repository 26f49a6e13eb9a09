// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A fake hybrid Intel machine for tests (engine and GUI): cpu_core on CPU 0 and cpu_atom on CPU 1. cpu_core's type
// is PERF_TYPE_RAW (4), as the kernel registers the big-core PMU; cpu_atom's 7 comes from the quipper
// perf.data.hybrid_topology fixture (cycles configs 0x400000000 and 0x700000000).

#include "pmu/PerfSyscalls.h"

namespace rdt::pmu::test {

constexpr std::uint32_t kCoreType = 4, kAtomType = 7;

inline PerfEnvironment hybridEnv(int model = 0x9A) // ALDERLAKE_L (Golden Cove / Gracemont)
{
    PerfEnvironment env;
    env.hasCpuCorePmu = true;
    env.cpuCoreType = kCoreType;
    env.cpuCoreCpus = { 0 };
    env.hasCpuAtomPmu = true;
    env.cpuAtomType = kAtomType;
    env.cpuAtomCpus = { 1 };
    env.cpuFamily = 6;
    env.cpuModel = model;
    env.vendor = "GenuineIntel";
    env.isRoot = true;
    return env;
}

} // namespace rdt::pmu::test

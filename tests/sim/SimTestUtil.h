// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sim/SimMachine.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rdt::sim::test {

struct MachineArgs {
    std::string preset = "skx-6154";
    unsigned cores = 1;
    unsigned threadsPerCore = 1;
    std::uint32_t sampling = 64;
    std::vector<std::pair<std::string, std::uint64_t>> overrides;
    unsigned coresPerL3 = 0; ///< SimTopology::coresPerL3 (0 = one L3 per socket)
};

inline std::unique_ptr<SimMachine> makeMachine(const MachineArgs& a = {})
{
    auto cpuid = presetCpuid(a.preset);
    EXPECT_TRUE(cpuid.ok());
    for (const auto& [k, v] : a.overrides) {
        auto s = applyCpuidOverride(*cpuid, k, v);
        EXPECT_TRUE(s.ok()) << s.error().toString();
    }
    SimOptions o;
    o.topology.coresPerSocket = a.cores;
    o.topology.threadsPerCore = a.threadsPerCore;
    o.topology.coresPerL3 = a.coresPerL3;
    o.setSampling = a.sampling;
    auto m = SimMachine::create(*cpuid, o);
    EXPECT_TRUE(m.ok()) << m.error().toString();
    return std::move(*m);
}

inline WorkloadSpec spec(Pattern p, std::uint64_t ws, double rate = 0)
{
    WorkloadSpec s;
    s.pattern = p;
    s.workingSet = ws;
    s.rate = rate;
    s.computeCycles = 0;
    return s;
}

constexpr std::uint64_t kMs = 1'000'000;

} // namespace rdt::sim::test

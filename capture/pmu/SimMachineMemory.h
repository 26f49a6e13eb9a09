// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulated machine's own cache model (capture/sim SimMachine: per-core L1/L2, per-socket L3 with CAT masks,
// local/remote memory) behind SimMemoryModel, so the simulated PMU's load latencies, data sources and TMA follow
// the same caches RDT allocations change. UNFINISHED: SimMachine keeps no coherence state, so HITM is never
// reported through this adapter (SmallCacheHierarchy models it for the shared-counter function).

#include "SimCache.h"

#include <vector>

namespace rdt::sim {
class SimMachine;
}

namespace rdt::pmu {

class SimMachineMemory final : public SimMemoryModel {
public:
    /// `cpus[i]` is the simulated CPU that the PMU's core i runs on (the program thread is core 0).
    SimMachineMemory(sim::SimMachine& machine, std::vector<unsigned> cpus);
    SimAccess access(std::uint64_t addr, bool write, unsigned core) override;

private:
    sim::SimMachine& m_machine;
    std::vector<unsigned> m_cpus;
};

} // namespace rdt::pmu

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulated machine's own cache model (capture/sim SimMachine: per-core L1/L2, per-socket L3 with CAT masks,
// local/remote memory) behind SimMemoryModel, so the simulated PMU's load latencies, data sources and TMA follow
// the same caches RDT allocations change.
//
// SimMachine itself keeps no coherence state (its caches are capacity models, and adding MESI there would slow
// every RDT simulation), so this adapter adds the one coherence effect the load-latency view shows: HITM. A line
// stored by one PMU core stays Modified in that core's private caches until another core loads it (a HITM: the
// snoop finds it Modified, SDM Table 22-5 "LLC Snoop HitM"), or until that core has
// modified as many other lines as its L2 holds (an approximation of eviction from L1/L2).

#include "SimCache.h"

#include <cstdint>
#include <deque>
#include <unordered_map>
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

    /// Cycles a HITM adds to an L3 hit: the snoop to the owning core and the write-back.
    static constexpr std::uint32_t kSnoopCycles = 30;
    /// Modified lines one core may hold: its L2's lines (CPUID.04H), the eviction approximation above.
    std::size_t privateLines() const { return m_privateLines; }

private:
    void noteModified(std::uint64_t line, unsigned core);
    /// SMT siblings share L1 and L2: no snoop between them.
    bool sameCaches(unsigned a, unsigned b) const { return m_l2Domain[a] == m_l2Domain[b]; }

    sim::SimMachine& m_machine;
    std::vector<unsigned> m_cpus;
    std::vector<unsigned> m_l2Domain; ///< per PMU core: the simulated core (L1/L2) its CPU belongs to
    std::size_t m_privateLines;
    std::unordered_map<std::uint64_t, unsigned> m_owner; ///< line -> PMU core holding it Modified
    std::vector<std::deque<std::uint64_t>> m_modifiedOrder; ///< per core, lines in the order it modified them
};

} // namespace rdt::pmu

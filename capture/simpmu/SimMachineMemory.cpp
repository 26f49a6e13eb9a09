// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimMachineMemory.h"

#include "sim/SimMachine.h"

namespace rdt::pmu {
namespace {

/// Lines of the level-2 cache from CPUID.04H (deterministic cache parameters, SDM Vol. 2A CPUID): ways x
/// partitions x line size x sets; 16384 (1 MiB) when the leaf does not describe an L2.
std::size_t l2Lines(const sim::SimCpuid& cpuid)
{
    for (std::uint32_t sub = 0; sub < 16 && cpuid.has(4, sub); ++sub) {
        const auto r = cpuid.query(4, sub);
        if ((r.eax & 0x1F) == 0) break; // no more caches
        if (((r.eax >> 5) & 0x7) != 2) continue;
        const std::size_t ways = ((r.ebx >> 22) & 0x3FF) + 1, partitions = ((r.ebx >> 12) & 0x3FF) + 1;
        const std::size_t sets = std::size_t { r.ecx } + 1;
        return ways * partitions * sets;
    }
    return 16384;
}

} // namespace

SimMachineMemory::SimMachineMemory(sim::SimMachine& machine, std::vector<unsigned> cpus)
    : m_machine(machine)
    , m_cpus(cpus.empty() ? std::vector<unsigned> { 0 } : std::move(cpus))
    , m_privateLines(l2Lines(machine.cpuid()))
    , m_modifiedOrder(m_cpus.size())
{
    for (unsigned cpu : m_cpus)
        m_l2Domain.push_back(machine.l2DomainOfCpu(cpu));
}

void SimMachineMemory::noteModified(std::uint64_t line, unsigned core)
{
    auto [it, inserted] = m_owner.try_emplace(line, core);
    if (!inserted) {
        if (sameCaches(it->second, core)) return; // already Modified here (or in the SMT sibling's shared L1/L2)
        it->second = core; // the store's RFO took the line from the other core
    }
    auto& order = m_modifiedOrder[core];
    order.push_back(line);
    if (order.size() <= m_privateLines) return;
    const std::uint64_t oldest = order.front();
    order.pop_front();
    // Written back on eviction, unless another core took it since (then it is no longer ours to drop).
    if (auto o = m_owner.find(oldest); o != m_owner.end() && o->second == core) m_owner.erase(o);
}

SimAccess SimMachineMemory::access(std::uint64_t addr, bool write, unsigned core)
{
    core %= static_cast<unsigned>(m_cpus.size());
    const unsigned cpu = m_cpus[core];
    const sim::AccessResult r = m_machine.access(cpu, addr, write ? sim::AccessKind::Store : sim::AccessKind::Load);
    SimAccess a;
    a.latency = r.latencyCycles;
    switch (r.level) {
    case sim::HitLevel::L1:
        a.level = MemLevel::L1;
        break;
    case sim::HitLevel::L2:
        a.level = MemLevel::L2;
        break;
    case sim::HitLevel::L3:
        a.level = MemLevel::L3;
        break;
    case sim::HitLevel::LocalDram:
        a.level = MemLevel::LocalDram;
        break;
    case sim::HitLevel::RemoteDram:
        a.level = MemLevel::RemoteDram;
        a.remote = true;
        break;
    }
    const std::uint64_t line = addr >> 6;
    if (write) {
        noteModified(line, core);
    } else if (auto o = m_owner.find(line); o != m_owner.end() && !sameCaches(o->second, core)) {
        // The load's own copy was invalidated by the other core's store: it misses L1/L2 and the L3 snoop finds
        // the line Modified in the owner's cache, which writes it back (now Shared).
        a.level = MemLevel::L3;
        a.hitm = true;
        a.remote = false;
        a.latency = static_cast<std::uint32_t>(m_machine.options().timing.l3Cycles) + kSnoopCycles;
        m_owner.erase(o);
    }
    return a;
}

} // namespace rdt::pmu

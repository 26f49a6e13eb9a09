// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimMachineMemory.h"

#include "sim/SimMachine.h"

namespace rdt::pmu {

SimMachineMemory::SimMachineMemory(sim::SimMachine& machine, std::vector<unsigned> cpus)
    : m_machine(machine)
    , m_cpus(cpus.empty() ? std::vector<unsigned> { 0 } : std::move(cpus))
{ }

SimAccess SimMachineMemory::access(std::uint64_t addr, bool write, unsigned core)
{
    const unsigned cpu = m_cpus[core % m_cpus.size()];
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
    return a;
}

} // namespace rdt::pmu

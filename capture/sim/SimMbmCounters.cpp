// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimMbmCounters.h"

#include "SimMachine.h"

namespace rdt::sim {

SimMbmCounters::SimMbmCounters(SimMachine& machine)
    : m_machine(machine)
{ }

void SimMbmCounters::restart(unsigned domain, std::uint32_t hwRmid, std::uint32_t event)
{
    auto v = m_machine.counterUnits(domain, hwRmid, event);
    m_state[{ domain, hwRmid, event }] = { v ? *v : 0, 0 };
}

std::uint64_t SimMbmCounters::advance(
    unsigned domain, std::uint32_t hwRmid, std::uint32_t event, std::uint64_t units, std::uint64_t widthMask)
{
    State& st = m_state[{ domain, hwRmid, event }];
    st.chunks += (units - st.prevMsr) & widthMask; // mbm_overflow_count
    st.prevMsr = units;
    return st.chunks;
}

} // namespace rdt::sim

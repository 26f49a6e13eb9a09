// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimRdtRegisters.h"

#include "SimMachineImpl.h"

#include <algorithm>

namespace rdt::sim {

SimRdtRegisters::SimRdtRegisters(SimMachine::Impl& impl)
    : m_impl(impl)
    , m_features(*impl.f)
{ }

SimMachine::Pqr SimRdtRegisters::pqr(unsigned cpu) const
{
    return cpu < m_impl.cpus.size() ? m_impl.cpus[cpu].pqr : Pqr {};
}

void SimRdtRegisters::setPqr(unsigned cpu, Pqr value)
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    if (cpu < m_impl.cpus.size()) m_impl.cpus[cpu].pqr = value;
}

std::uint32_t SimRdtRegisters::l3Mask(unsigned domain, std::uint32_t index) const
{
    const auto& d = m_impl.domains.at(domain);
    return index < d.l3Masks.size() ? d.l3Masks[index] : 0;
}

void SimRdtRegisters::setL3Mask(unsigned domain, std::uint32_t index, std::uint32_t cbm)
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& d = m_impl.domains.at(domain);
    if (index < d.l3Masks.size()) {
        d.l3Masks[index] = cbm;
        m_impl.recomputeL3Ways(d);
    }
}

std::uint32_t SimRdtRegisters::l2Mask(unsigned l2Domain, std::uint32_t index) const
{
    const auto& k = m_impl.cores.at(l2Domain);
    return index < k.l2Masks.size() ? k.l2Masks[index] : 0;
}

void SimRdtRegisters::setL2Mask(unsigned l2Domain, std::uint32_t index, std::uint32_t cbm)
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& k = m_impl.cores.at(l2Domain);
    if (index < k.l2Masks.size()) {
        k.l2Masks[index] = cbm;
        m_impl.recomputeL2Ways(k);
    }
}

bool SimRdtRegisters::l3Cdp(unsigned domain) const
{
    return m_impl.domains.at(domain).cdp;
}

void SimRdtRegisters::setL3Cdp(unsigned domain, bool on)
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& d = m_impl.domains.at(domain);
    d.cdp = on;
    m_impl.recomputeL3Ways(d);
}

bool SimRdtRegisters::l2Cdp(unsigned l2Domain) const
{
    return m_impl.cores.at(l2Domain).l2Cdp;
}

void SimRdtRegisters::setL2Cdp(unsigned l2Domain, bool on)
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& k = m_impl.cores.at(l2Domain);
    k.l2Cdp = on;
    m_impl.recomputeL2Ways(k);
}

std::uint32_t SimRdtRegisters::mbaDelay(unsigned domain, std::uint32_t clos) const
{
    const auto& d = m_impl.domains.at(domain);
    return clos < d.mbaDelay.size() ? d.mbaDelay[clos] : 0;
}

void SimRdtRegisters::setMbaDelay(unsigned domain, std::uint32_t clos, std::uint32_t delay)
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& d = m_impl.domains.at(domain);
    if (clos < d.mbaDelay.size()) d.mbaDelay[clos] = delay;
}

std::uint8_t SimRdtRegisters::cbaLevel(unsigned cpu, std::uint32_t clos) const
{
    const auto& c = m_impl.cpus.at(cpu);
    return clos < c.cba.size() ? c.cba[clos] : 0;
}

void SimRdtRegisters::setCbaLevel(unsigned cpu, std::uint32_t clos, std::uint8_t level)
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    auto& c = m_impl.cpus.at(cpu);
    if (clos < c.cba.size()) c.cba[clos] = level;
}

void SimRdtRegisters::reset()
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    SimMachine::Impl& im = m_impl;
    const SimFeatures& F = m_features;
    for (auto& d : im.domains) {
        d.l3Masks.assign(F.l3Cat.present ? F.l3Cat.numClos : 0, F.l3Cat.fullMask());
        d.cdp = false;
        // Intel: delay 0 (no throttling); AMD: the limit that means unlimited (2048).
        d.mbaDelay.assign(F.mba.present ? F.mba.numClos : 0, F.mba.maxBandwidth);
        im.recomputeL3Ways(d);
    }
    for (auto& k : im.cores) {
        k.l2Masks.assign(F.l2Cat.present ? F.l2Cat.numClos : 0, F.l2Cat.fullMask());
        k.l2Cdp = false;
        im.recomputeL2Ways(k);
    }
    for (auto& c : im.cpus) {
        c.pqr = {};
        c.cba.assign(F.cba.present ? F.cba.numClos : 0, 0);
    }
}

double SimRdtRegisters::throttleFraction(unsigned cpu) const
{
    return std::min(m_impl.mbaFraction(cpu), m_impl.cbaFraction(cpu));
}

} // namespace rdt::sim

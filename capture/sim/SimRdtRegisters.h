// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimMachine.h"

#include <cstdint>

namespace rdt::sim {

/// The simulated machine's RDT registers as the MSRs hold them (raw, unchecked: SimMsrSpace applies the SDM's #GP
/// rules): IA32_PQR_ASSOC per CPU, L3/L2 CBMs (SDM 20.19.4), CDP enables (20.19.6), MBA delays (20.19.7) and CBA
/// levels (20.19.8), their reset values, and what MBA and CBA leave a core. A mask or CDP write re-derives the cache
/// ways it steers. A view over SimMachine's state: SimMachine holds the mutex and hands out nothing of it.
class SimRdtRegisters {
public:
    using Pqr = SimMachine::Pqr;

    explicit SimRdtRegisters(SimMachine::Impl& impl);

    SimMachine::Pqr pqr(unsigned cpu) const;
    void setPqr(unsigned cpu, Pqr value);
    std::uint32_t l3Mask(unsigned domain, std::uint32_t index) const;
    void setL3Mask(unsigned domain, std::uint32_t index, std::uint32_t cbm);
    std::uint32_t l2Mask(unsigned l2Domain, std::uint32_t index) const;
    void setL2Mask(unsigned l2Domain, std::uint32_t index, std::uint32_t cbm);
    bool l3Cdp(unsigned domain) const;
    void setL3Cdp(unsigned domain, bool on);
    bool l2Cdp(unsigned l2Domain) const;
    void setL2Cdp(unsigned l2Domain, bool on);
    std::uint32_t mbaDelay(unsigned domain, std::uint32_t clos) const;
    void setMbaDelay(unsigned domain, std::uint32_t clos, std::uint32_t delay);
    std::uint8_t cbaLevel(unsigned cpu, std::uint32_t clos) const;
    void setCbaLevel(unsigned cpu, std::uint32_t clos, std::uint8_t level);
    void reset();
    double throttleFraction(unsigned cpu) const;

private:
    SimMachine::Impl& m_impl;
    const SimFeatures& m_features;
};

} // namespace rdt::sim

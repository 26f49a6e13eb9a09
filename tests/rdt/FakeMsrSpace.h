// SPDX-License-Identifier: GPL-3.0-or-later
// A small SDM-rule MsrSpace for MsrBackend tests: #GP (EIO) on reserved bits, RMID/CLOS above the maximum,
// zero or non-contiguous CBMs, MBA delays above the maximum; QM_CTR from a settable counter table.
#pragma once

#include "platform/MsrSpace.h"
#include "rdt/MsrBackend.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <map>
#include <tuple>
#include <vector>

namespace rdt::test {

class FakeMsrSpace final : public MsrSpace {
public:
    struct Write {
        unsigned cpu;
        std::uint32_t msr;
        std::uint64_t value;
    };

    explicit FakeMsrSpace(const MsrRdtEnumeration& e)
        : m_enum(e)
    { }

    Result<std::uint64_t> read(unsigned cpu, std::uint32_t a) override
    {
        if (cpu >= cpuCount()) return errnoError(ENXIO, "no CPU " + std::to_string(cpu));
        ++m_reads;
        if (m_failReadNumber > 0 && m_reads == m_failReadNumber) return errnoError(EIO, "injected RDMSR failure");
        if (a == msr::IA32_QM_CTR) {
            const auto sel = m_perCpu[{ cpu, msr::IA32_QM_EVTSEL }];
            const auto rmid = static_cast<unsigned>(sel >> 32);
            const auto event = static_cast<unsigned>(sel & 0xff);
            if (rmid > m_enum.maxRmid || event < 1 || event > 3) return msr::QM_CTR_ERROR;
            const auto key = std::make_tuple(domainOf(cpu), rmid, event);
            if (m_unavailable.count(key)) return msr::QM_CTR_UNAVAILABLE;
            auto v = m_counters[key];
            if (event != msr::EVENT_L3_OCCUPANCY) v &= (1ULL << m_enum.mbmWidth) - 1;
            if (m_overflowOnce.erase(key)) v |= msr::QM_CTR_OVERFLOW; // reset on read (20.18.7)
            return v;
        }
        if (isPackageScope(a))
            return m_perDomain.count({ domainOf(cpu), a }) ? m_perDomain[{ domainOf(cpu), a }] : resetValue(a);
        return m_perCpu.count({ cpu, a }) ? m_perCpu[{ cpu, a }] : resetValue(a);
    }

    Status write(unsigned cpu, std::uint32_t a, std::uint64_t v) override
    {
        if (cpu >= cpuCount()) return errnoError(ENXIO, "no CPU " + std::to_string(cpu));
        if (m_failWriteNumber > 0 && ++m_writeCount == m_failWriteNumber) return errnoError(EIO, "injected #GP");
        if (gp(a, v)) return errnoError(EIO, "#GP(0)");
        writes.push_back({ cpu, a, v });
        if (isPackageScope(a))
            m_perDomain[{ domainOf(cpu), a }] = v;
        else
            m_perCpu[{ cpu, a }] = v;
        return {};
    }

    unsigned cpuCount() const override { return static_cast<unsigned>(m_enum.l3IdOfCpu.size()); }
    std::string describe() const override { return "fake MSR space"; }

    void setCounter(int domain, unsigned rmid, unsigned event, std::uint64_t v)
    {
        m_counters[std::make_tuple(domain, rmid, event)] = v;
    }
    void setUnavailable(int domain, unsigned rmid, unsigned event)
    {
        m_unavailable[std::make_tuple(domain, rmid, event)] = true;
    }
    void overflowOnce(int domain, unsigned rmid, unsigned event)
    {
        m_overflowOnce[std::make_tuple(domain, rmid, event)] = true;
    }
    void failWrite(int n)
    {
        m_failWriteNumber = n;
        m_writeCount = 0;
    }
    /// The n-th read from now fails once (0: none).
    void failRead(int n)
    {
        m_failReadNumber = n;
        m_reads = 0;
    }
    int reads() const { return m_reads; }
    /// Every control register that differs from its reset value (not the monitoring pair QM_EVTSEL/QM_CTR), for
    /// before/after comparisons: a register never written and one written back to its reset value are the same.
    std::map<std::tuple<int, int, std::uint32_t>, std::uint64_t> registers() const
    {
        std::map<std::tuple<int, int, std::uint32_t>, std::uint64_t> out;
        for (const auto& [k, v] : m_perCpu)
            if (k.second != msr::IA32_QM_EVTSEL && v != resetValue(k.second))
                out[{ 0, static_cast<int>(k.first), k.second }] = v;
        for (const auto& [k, v] : m_perDomain)
            if (v != resetValue(k.second)) out[{ 1, k.first, k.second }] = v;
        return out;
    }

    std::vector<Write> writes;

private:
    int domainOf(unsigned cpu) const { return m_enum.l3IdOfCpu[cpu]; }
    bool isPackageScope(std::uint32_t a) const
    {
        return a == msr::IA32_L3_QOS_CFG || (a >= msr::IA32_L3_MASK_0 && a < msr::IA32_L3_MASK_0 + 128)
            || (a >= msr::IA32_L2_QOS_EXT_BW_THRTL_0 && a < msr::IA32_L2_QOS_EXT_BW_THRTL_0 + 128);
    }
    std::uint64_t resetValue(std::uint32_t a) const
    {
        if (a >= msr::IA32_L3_MASK_0 && a < msr::IA32_L3_MASK_0 + 128)
            return (1ULL << m_enum.l3CbmLength) - 1; // masks reset to all 1s (20.19.5)
        return 0;
    }
    bool gp(std::uint32_t a, std::uint64_t v) const
    {
        const unsigned closMax = std::max(m_enum.l3MaxClos, std::max(m_enum.mbaMaxClos, m_enum.cbaMaxClos));
        if (a == msr::IA32_PQR_ASSOC) return (v & 0xffffffffULL) > m_enum.maxRmid || (v >> 32) > closMax;
        if (a == msr::IA32_QM_EVTSEL) return (v >> 32) > m_enum.maxRmid || (v & 0xffffff00ULL) != 0;
        if (a == msr::IA32_L3_QOS_CFG) return (v & ~1ULL) != 0 || !m_enum.l3Cdp;
        if (a >= msr::IA32_L3_MASK_0 && a < msr::IA32_L3_MASK_0 + 128) {
            if (a - msr::IA32_L3_MASK_0 > m_enum.l3MaxClos) return true;
            if (v == 0 || (v >> m_enum.l3CbmLength) != 0) return true;
            const auto s = v >> std::countr_zero(v);
            return !m_enum.l3Sparse && (s & (s + 1)) != 0;
        }
        if (a >= msr::IA32_L2_QOS_EXT_BW_THRTL_0 && a < msr::IA32_L2_QOS_EXT_BW_THRTL_0 + 128)
            return a - msr::IA32_L2_QOS_EXT_BW_THRTL_0 > m_enum.mbaMaxClos || v > m_enum.mbaMaxDelay;
        if (a >= msr::IA32_QOS_CORE_BW_THRTL_0 && a < msr::IA32_QOS_CORE_BW_THRTL_0 + 16) {
            for (unsigned i = 0; i < 8; ++i)
                if (((v >> (8 * i)) & 0xff) > m_enum.cbaMaxLevel) return true;
            return false;
        }
        return false;
    }

    MsrRdtEnumeration m_enum;
    std::map<std::pair<unsigned, std::uint32_t>, std::uint64_t> m_perCpu;
    std::map<std::pair<int, std::uint32_t>, std::uint64_t> m_perDomain;
    std::map<std::tuple<int, unsigned, unsigned>, std::uint64_t> m_counters;
    std::map<std::tuple<int, unsigned, unsigned>, bool> m_unavailable;
    std::map<std::tuple<int, unsigned, unsigned>, bool> m_overflowOnce;
    int m_failWriteNumber = 0;
    int m_writeCount = 0;
    int m_failReadNumber = 0;
    int m_reads = 0;
};

/// A Skylake-SP-like enumeration (SDM values of the Xeon Gold 6154: 11-bit CBM, shareable 600, 16 CLOS,
/// upscaling 73728, 24-bit MBM), small: 4 CPUs in 2 L3 domains, 8 RMIDs.
inline MsrRdtEnumeration skxLike()
{
    MsrRdtEnumeration e;
    e.maxRmid = 7;
    e.upscalingFactor = 73728;
    e.mbmWidth = 24;
    e.overflowBit = false;
    e.llcOccupancy = e.mbmTotal = e.mbmLocal = true;
    e.l3Cat = true;
    e.l3CbmLength = 11;
    e.l3Shareable = 0x600;
    e.l3Cdp = true;
    e.l3MaxClos = 15;
    e.l3BytesPerBit = 24u * 1024 * 1024 / 11;
    e.mba = true;
    e.mbaMaxDelay = 90;
    e.mbaLinear = true;
    e.mbaMaxClos = 7;
    e.cba = true;
    e.cbaMaxLevel = 15;
    e.cbaMaxClos = 15;
    e.l3IdOfCpu = { 0, 0, 1, 1 };
    return e;
}

} // namespace rdt::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimMsrSpace.h"
#include "core/Text.h"

#include "platform/CpuFeatures.h"

#include <bit>
#include <cerrno>
#include <cstdio>

namespace rdt::sim {
namespace {

bool contiguous(std::uint32_t v)
{
    return v != 0 && ((v >> std::countr_zero(v)) & ((v >> std::countr_zero(v)) + 1)) == 0;
}

constexpr std::uint32_t kL3MaskEnd = 0x0D10; // 0C90H-0D0FH: up to 128 L3 CLOS (20.19.4.3)
constexpr std::uint32_t kL2MaskEnd = 0x0D50; // 0D10H-0D4FH: up to 64 L2 CLOS
constexpr std::uint32_t kMbaEnd = 0x0D90;
constexpr std::uint32_t kCbaEnd = 0x0E10;

/// Which RDT MSR an address names, and its index n within a per-CLOS range.
struct RdtMsr {
    enum Kind { PqrAssoc, QmEvtsel, QmCtr, L3Mask, L2Mask, L3QosCfg, L2QosCfg, Mba, Cba, Other } kind = Other;
    std::uint32_t n = 0;
};

RdtMsr classify(std::uint32_t msr)
{
    if (msr == msr::IA32_PQR_ASSOC) return { RdtMsr::PqrAssoc };
    if (msr == msr::IA32_QM_EVTSEL) return { RdtMsr::QmEvtsel };
    if (msr == msr::IA32_QM_CTR) return { RdtMsr::QmCtr };
    if (msr == msr::IA32_L3_QOS_CFG) return { RdtMsr::L3QosCfg };
    if (msr == msr::IA32_L2_QOS_CFG) return { RdtMsr::L2QosCfg };
    if (msr >= msr::IA32_L3_MASK_0 && msr < kL3MaskEnd) return { RdtMsr::L3Mask, msr - msr::IA32_L3_MASK_0 };
    if (msr >= msr::IA32_L2_MASK_0 && msr < kL2MaskEnd) return { RdtMsr::L2Mask, msr - msr::IA32_L2_MASK_0 };
    if (msr >= msr::IA32_L2_QOS_EXT_BW_THRTL_0 && msr < kMbaEnd)
        return { RdtMsr::Mba, msr - msr::IA32_L2_QOS_EXT_BW_THRTL_0 };
    if (msr >= msr::IA32_QOS_CORE_BW_THRTL_0 && msr < kCbaEnd)
        return { RdtMsr::Cba, msr - msr::IA32_QOS_CORE_BW_THRTL_0 };
    return {};
}

std::string outsideClos(const char* name, std::uint32_t n, std::uint32_t numClos, const char* where)
{
    return std::string(name) + std::to_string(n) + " is outside the supported CLOS 0-" + std::to_string(numClos - 1)
        + " (" + where + ")";
}

/// The #GP(0) rule when the MSR does not exist on this processor: its feature is not enumerated, or its index lies
/// beyond the enumerated CLOS count. RDMSR and WRMSR fault alike (20.18.8.1, 20.19.6.3, 20.19.7.2, 20.19.8.3), so
/// both paths ask here first. Empty when the MSR exists.
std::string absenceRule(RdtMsr m, std::uint32_t address, const SimFeatures& f)
{
    const bool mon = f.mon.maxRmid > 0 || f.mon.present;
    switch (m.kind) {
    case RdtMsr::PqrAssoc:
        return mon || f.allocation() ? "" : "IA32_PQR_ASSOC is not implemented: CPUID.07H.0:EBX[12] and [15] are 0";
    case RdtMsr::QmEvtsel:
    case RdtMsr::QmCtr:
        if (mon) return "";
        return std::string(m.kind == RdtMsr::QmEvtsel ? "IA32_QM_EVTSEL" : "IA32_QM_CTR")
            + " is not implemented: no RDT monitoring (CPUID.07H.0:EBX[12]=0)";
    case RdtMsr::L3Mask:
        if (!f.l3Cat.present) return "IA32_L3_MASK_n is not implemented: no L3 CAT (CPUID.10H.0:EBX[1]=0)";
        return m.n < f.l3Cat.numClos ? ""
                                     : outsideClos("IA32_L3_MASK_", m.n, f.l3Cat.numClos, "CPUID.10H.1:EDX, 20.19.6.3");
    case RdtMsr::L2Mask:
        if (!f.l2Cat.present) return "IA32_L2_MASK_n is not implemented: no L2 CAT (CPUID.10H.0:EBX[2]=0)";
        return m.n < f.l2Cat.numClos ? ""
                                     : outsideClos("IA32_L2_MASK_", m.n, f.l2Cat.numClos, "CPUID.10H.2:EDX, 20.19.6.3");
    case RdtMsr::L3QosCfg:
        return f.l3Cat.cdp ? "" : "IA32_L3_QOS_CFG exists only with L3 CDP (CPUID.10H.1:ECX[2]=0, 20.19.5)";
    case RdtMsr::L2QosCfg:
        return f.l2Cat.cdp ? "" : "IA32_L2_QOS_CFG exists only with L2 CDP (CPUID.10H.2:ECX[2]=0, 20.19.6)";
    case RdtMsr::Mba:
        if (!f.mba.present) return "IA32_L2_QoS_Ext_BW_Thrtl_n is not implemented: no MBA (CPUID.10H.0:EBX[3]=0)";
        if (m.n < f.mba.numClos) return "";
        return "IA32_L2_QoS_Ext_BW_Thrtl_" + std::to_string(m.n) + " is outside the MBA CLOS 0-"
            + std::to_string(f.mba.numClos - 1) + " (CPUID.10H.3:EDX, 20.19.7.2)";
    case RdtMsr::Cba:
        if (!f.cba.present) return "IA32_QoS_Core_BW_Thrtl_n is not implemented: no CBA (CPUID.10H.0:EBX[5]=0)";
        if (m.n < (f.cba.numClos + 7) / 8) return "";
        return "IA32_QoS_Core_BW_Thrtl_" + std::to_string(m.n) + " is beyond E00H + ((CLOS_MAX+1)/8 - 1) (Table 20-21)";
    case RdtMsr::Other:
        break;
    }
    return "MSR " + formatHex(address) + " is not implemented by the simulated processor (only the RDT MSRs are)";
}

} // namespace

SimMsrSpace::SimMsrSpace(SimMachine& machine)
    : m_machine(machine)
    , m_evtsel(machine.cpuCount(), 0)
{ }

std::string SimMsrSpace::describe() const
{
    return "simulated MSRs of " + m_machine.cpuid().name + " (simulated)";
}

unsigned SimMsrSpace::rmidWidth() const
{
    const SimFeatures& f = m_machine.features();
    return f.mon.maxRmid == 0 && !f.mon.present ? 0 : rdt::ceilLog2(std::uint64_t { f.mon.maxRmid } + 1);
}

unsigned SimMsrSpace::closWidth() const
{
    const SimFeatures& f = m_machine.features();
    return f.allocation() ? rdt::ceilLog2(std::uint64_t { f.closMax } + 1) : 0;
}

Error SimMsrSpace::gp(unsigned cpu, std::uint32_t msr, bool write, const std::string& rule) const
{
    return errnoError(EIO,
        std::string(write ? "WRMSR " : "RDMSR ") + formatHex(msr) + " on simulated CPU " + std::to_string(cpu)
            + ": #GP(0): " + rule,
        "this is what the processor does (simulated); check the value against CPUID enumeration");
}

Result<std::uint64_t> SimMsrSpace::read(unsigned cpu, std::uint32_t msr)
{
    std::lock_guard lock(m_machine.mutex());
    const SimFeatures& f = m_machine.features();
    if (cpu >= cpuCount())
        return errnoError(ENXIO, "simulated CPU " + std::to_string(cpu) + " does not exist",
            "CPUs 0-" + std::to_string(cpuCount() - 1) + " exist");
    const RdtMsr m = classify(msr);
    if (auto rule = absenceRule(m, msr, f); !rule.empty()) return gp(cpu, msr, false, rule);
    const unsigned dom = m_machine.l3DomainOfCpu(cpu), core = m_machine.l2DomainOfCpu(cpu);
    switch (m.kind) {
    case RdtMsr::PqrAssoc: {
        auto p = m_machine.pqr(cpu);
        return (std::uint64_t { p.clos } << 32) | p.rmid;
    }
    case RdtMsr::QmEvtsel:
        return m_evtsel[cpu];
    case RdtMsr::QmCtr: {
        const auto rmid = static_cast<std::uint32_t>((m_evtsel[cpu] >> 32) & 0x3FF);
        const auto event = static_cast<std::uint32_t>(m_evtsel[cpu] & 0xFF);
        auto units = m_machine.counterUnits(dom, rmid, event);
        // 20.18.7: Error (bit 63) for an unsupported RMID or event; Unavailable (bit 62) when there is no data.
        if (!units) return msr::QM_CTR_ERROR;
        if (m_machine.unavailable(dom, rmid)) return msr::QM_CTR_UNAVAILABLE;
        std::uint64_t v = *units;
        if (f.mon.overflowBit && (event == msr::EVENT_L3_TOTAL_BW || event == msr::EVENT_L3_LOCAL_BW)) {
            // Bit 61 "set on overflow of the MBM counters and reset upon read" (20.18.5.2, 20.18.7).
            std::uint64_t wraps = m_machine.counterWraps(dom, rmid, event);
            auto& seen = m_wrapsAtRead[{ dom, rmid, event }];
            if (wraps != seen) v |= msr::QM_CTR_OVERFLOW;
            seen = wraps;
        }
        return v;
    }
    case RdtMsr::L3Mask:
        return m_machine.l3Mask(dom, m.n);
    case RdtMsr::L2Mask:
        return m_machine.l2Mask(core, m.n);
    case RdtMsr::L3QosCfg:
        return m_machine.l3Cdp(dom) ? 1u : 0u;
    case RdtMsr::L2QosCfg:
        return m_machine.l2Cdp(core) ? 1u : 0u;
    case RdtMsr::Mba:
        return m_machine.mbaDelay(dom, m.n);
    case RdtMsr::Cba: {
        std::uint64_t v = 0;
        for (std::uint32_t i = 0; i < 8; ++i)
            v |= std::uint64_t { m_machine.cbaLevel(cpu, m.n * 8 + i) } << (8 * i);
        return v;
    }
    case RdtMsr::Other:
        break;
    }
    return gp(cpu, msr, false, absenceRule({}, msr, f)); // unreachable: absenceRule rejected Other above
}

Status SimMsrSpace::write(unsigned cpu, std::uint32_t msr, std::uint64_t value)
{
    std::lock_guard lock(m_machine.mutex());
    const SimFeatures& f = m_machine.features();
    if (cpu >= cpuCount())
        return errnoError(ENXIO, "simulated CPU " + std::to_string(cpu) + " does not exist",
            "CPUs 0-" + std::to_string(cpuCount() - 1) + " exist");
    const RdtMsr m = classify(msr);
    if (auto rule = absenceRule(m, msr, f); !rule.empty()) return gp(cpu, msr, true, rule);
    const unsigned dom = m_machine.l3DomainOfCpu(cpu), core = m_machine.l2DomainOfCpu(cpu);
    switch (m.kind) {
    case RdtMsr::PqrAssoc:
        return writePqr(cpu, value);
    case RdtMsr::QmEvtsel: {
        const unsigned rw = rmidWidth();
        const std::uint64_t allowed = 0xFFull | ((rw ? ((1ull << rw) - 1) : 0) << 32);
        if (value & ~allowed)
            return gp(cpu, msr, true,
                "reserved bit set in IA32_QM_EVTSEL " + formatHex(value) + " (EvtID is bits 7:0, RMID bits "
                    + std::to_string(32 + rw - 1) + ":32; 20.18.7, 20.18.8.1)");
        auto rmid = static_cast<std::uint32_t>(value >> 32);
        if (rmid > f.mon.maxRmid)
            return gp(cpu, msr, true,
                "RMID " + std::to_string(rmid) + " exceeds the maximum RMID " + std::to_string(f.mon.maxRmid)
                    + " (20.18.8.1)");
        m_evtsel[cpu] = value;
        return {};
    }
    case RdtMsr::QmCtr:
        return gp(cpu, msr, true, "IA32_QM_CTR is read-only (20.18.7)");
    case RdtMsr::L3Mask:
    case RdtMsr::L2Mask: {
        const bool l3 = m.kind == RdtMsr::L3Mask;
        const CatCaps& cat = l3 ? f.l3Cat : f.l2Cat;
        if (value & ~std::uint64_t { cat.fullMask() })
            return gp(cpu, msr, true,
                "reserved bit set: " + formatHex(value) + " exceeds the " + std::to_string(cat.cbmLen)
                    + "-bit capacity bitmask (20.19.4.3, 20.19.5.1)");
        if (value == 0) return gp(cpu, msr, true, "a zero capacity bitmask is not allowed (20.19.2)");
        if (!cat.sparse && !contiguous(static_cast<std::uint32_t>(value)))
            return gp(cpu, msr, true,
                "capacity bitmask " + formatHex(value)
                    + " is not contiguous and non-contiguous masks are not enumerated (CPUID.10H:ECX[3]=0, 20.19.2)");
        if (l3)
            m_machine.setL3Mask(dom, m.n, static_cast<std::uint32_t>(value));
        else
            m_machine.setL2Mask(core, m.n, static_cast<std::uint32_t>(value));
        return {};
    }
    case RdtMsr::L3QosCfg:
    case RdtMsr::L2QosCfg: {
        const bool l3 = m.kind == RdtMsr::L3QosCfg;
        if (value & ~1ull)
            return gp(cpu, msr, true,
                std::string("reserved bits 63:1 set in ") + (l3 ? "IA32_L3_QOS_CFG " : "IA32_L2_QOS_CFG ")
                    + formatHex(value) + (l3 ? " (20.19.5)" : " (20.19.6)"));
        if (l3)
            m_machine.setL3Cdp(dom, value & 1);
        else
            m_machine.setL2Cdp(core, value & 1);
        return {};
    }
    case RdtMsr::Mba:
        if (value & ~0xFFFFull)
            return gp(
                cpu, msr, true, "reserved bits 63:16 set in the MBA delay " + formatHex(value) + " (Figure 20-39)");
        if (value > f.mba.maxDelay)
            return gp(cpu, msr, true,
                "MBA delay " + std::to_string(value) + " is above MBA_MAX " + std::to_string(f.mba.maxDelay)
                    + " (CPUID.10H.3:EAX[11:0]+1, 20.19.7.2)");
        m_machine.setMbaDelay(dom, m.n, static_cast<std::uint32_t>(value));
        return {};
    case RdtMsr::Cba:
        for (std::uint32_t i = 0; i < 8; ++i) {
            auto level = static_cast<std::uint32_t>((value >> (8 * i)) & 0xFF);
            if (level > f.cba.maxLevel)
                return gp(cpu, msr, true,
                    "CLOS[" + std::to_string(m.n * 8 + i) + "].Level " + std::to_string(level)
                        + " is above CBA_MAX_Throttle_Level " + std::to_string(f.cba.maxLevel) + " (20.19.8.3)");
            if (level != 0 && m.n * 8 + i >= f.cba.numClos)
                return gp(
                    cpu, msr, true, "CLOS[" + std::to_string(m.n * 8 + i) + "] is not supported by CBA (20.19.8.3)");
        }
        for (std::uint32_t i = 0; i < 8; ++i)
            m_machine.setCbaLevel(cpu, m.n * 8 + i, static_cast<std::uint8_t>((value >> (8 * i)) & 0xFF));
        return {};
    case RdtMsr::Other:
        break;
    }
    return gp(cpu, msr, true, absenceRule({}, msr, f)); // unreachable: absenceRule rejected Other above
}

Status SimMsrSpace::writePqr(unsigned cpu, std::uint64_t value)
{
    const SimFeatures& f = m_machine.features();
    const std::uint32_t msr = msr::IA32_PQR_ASSOC;
    const unsigned rw = rmidWidth(), cw = closWidth();
    const std::uint64_t rmidField = rw ? ((1ull << rw) - 1) : 0;
    const std::uint64_t closField = cw ? ((1ull << cw) - 1) << 32 : 0;
    if (value & ~(rmidField | closField))
        return gp(cpu, msr, true,
            "reserved bit set in IA32_PQR_ASSOC " + formatHex(value) + " (RMID field is " + std::to_string(rw)
                + " bits, CLOS field " + std::to_string(cw) + " bits; 20.18.8.1, 20.19.6.3)");
    auto rmid = static_cast<std::uint32_t>(value & rmidField);
    auto clos = static_cast<std::uint32_t>(value >> 32);
    if (rmid > f.mon.maxRmid)
        return gp(cpu, msr, true,
            "RMID " + std::to_string(rmid) + " exceeds the maximum RMID " + std::to_string(f.mon.maxRmid)
                + " (CPUID.0FH.0:EBX, 20.18.8.1)");
    if (clos > f.closMax)
        return gp(cpu, msr, true,
            "CLOS " + std::to_string(clos) + " exceeds the maximum CLOS " + std::to_string(f.closMax)
                + " over all allocation resources (CPUID.10H.ResID:EDX, 20.19.6.3)");
    m_machine.setPqr(cpu, { clos, rmid });
    return {};
}

} // namespace rdt::sim

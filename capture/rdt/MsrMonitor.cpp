// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrMonitor.h"

#include "GroupNames.h"
#include "MsrBits.h"
#include "Sample.h"

#include <cerrno>

namespace rdt {

MsrMonitor::MsrMonitor(
    MsrSpace& msrs, const MsrRdtEnumeration& enumeration, const MsrTopology& topology, MsrGroupTable& table)
    : m_msrs(msrs)
    , m_enum(enumeration)
    , m_topology(topology)
    , m_table(table)
{ }

Result<std::uint64_t> MsrMonitor::read(
    int domain, unsigned rmid, std::uint32_t eventId, std::uint32_t* flags, bool* overflow)
{
    const unsigned cpu = m_topology.cpuOfDomain(domain, false);
    const std::uint64_t sel = (std::uint64_t(rmid) << 32) | eventId;
    if (auto w = m_msrs.write(cpu, msr::IA32_QM_EVTSEL, sel); !w) return w.error();
    auto v = m_msrs.read(cpu, msr::IA32_QM_CTR);
    if (!v) return v.error();
    // Each event's own flags: a local counter that reads Unavailable leaves the total known.
    const bool occupancy = eventId == msr::EVENT_L3_OCCUPANCY;
    const bool local = eventId == msr::EVENT_L3_LOCAL_BW;
    if (*v & msr::QM_CTR_ERROR)
        *flags |= occupancy ? SampleOccupancyError : local ? SampleMbmLocalError : SampleMbmError;
    if (*v & msr::QM_CTR_UNAVAILABLE)
        *flags |= occupancy ? SampleOccupancyUnavailable : local ? SampleMbmLocalUnavailable : SampleMbmUnavailable;
    if (*v & (msr::QM_CTR_ERROR | msr::QM_CTR_UNAVAILABLE)) return 0u;
    const bool ovf = m_enum.overflowBit && (*v & msr::QM_CTR_OVERFLOW);
    if (overflow) *overflow = ovf;
    // Data is bits 61:0, or 60:0 when bit 61 is the overflow flag.
    return *v & (m_enum.overflowBit ? (msr::QM_CTR_OVERFLOW - 1) : ((1ULL << 62) - 1));
}

Result<GroupCounters> MsrMonitor::readGroup(const std::string& path)
{
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    const MsrGroup* g = m_table.find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    if (m_enum.maxRmid == 0)
        return errnoError(ENOENT, "no RDT monitoring on this CPU", "CPUID.07H.00H:EBX[12] is 0; use --source sim");
    // As resctrl does, a control group's numbers include its monitor groups' RMIDs.
    std::vector<unsigned> rmids { g->rmid };
    if (g->isControl)
        for (const auto& o : m_table.groups)
            if (!o.isControl && o.parent == path) rmids.push_back(o.rmid);
    const std::uint64_t widthMask = fullMask(m_enum.mbmWidth);
    GroupCounters out;
    out.group = path;
    out.bytesPerUnit = m_enum.upscalingFactor;
    for (int d : m_topology.l3Domains()) {
        CounterReading c;
        c.domain = d;
        for (unsigned rmid : rmids) {
            if (m_enum.llcOccupancy) {
                auto v = read(d, rmid, msr::EVENT_L3_OCCUPANCY, &c.flags, nullptr);
                if (!v) return v.error();
                c.occupancyBytes += *v * m_enum.upscalingFactor;
            }
            if (m_enum.mbmTotal) {
                bool ovf = false;
                auto v = read(d, rmid, msr::EVENT_L3_TOTAL_BW, &c.flags, &ovf);
                if (!v) return v.error();
                c.mbmTotalRaw = (c.mbmTotalRaw + *v) & widthMask; // sums stay differencable modulo 2^width
                c.mbmTotalOverflow |= ovf;
            }
            if (m_enum.mbmLocal) {
                bool ovf = false;
                auto v = read(d, rmid, msr::EVENT_L3_LOCAL_BW, &c.flags, &ovf);
                if (!v) return v.error();
                c.mbmLocalRaw = (c.mbmLocalRaw + *v) & widthMask;
                c.mbmLocalOverflow |= ovf;
            }
        }
        out.domains.push_back(c);
    }
    return out;
}

bool MsrMonitor::drained(unsigned rmid, std::uint64_t threshold)
{
    if (!m_enum.llcOccupancy) return true;
    for (int d : m_topology.l3Domains()) {
        std::uint32_t flags = 0;
        auto v = read(d, rmid, msr::EVENT_L3_OCCUPANCY, &flags, nullptr);
        if (!v || flags != 0 || *v * m_enum.upscalingFactor > threshold) return false;
    }
    return true;
}

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
// MsrBackend, part 2: masks, MBA delays and CBA levels (20.19), the QM_EVTSEL/QM_CTR protocol (20.18.7) and the
// CDP enable/disable sequence (20.19.6.2).
#include "MsrBackend.h"
#include "MsrBits.h"
#include "core/Text.h"

#include "GroupNames.h"
#include "Sample.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>

namespace rdt {

Result<std::uint64_t> MsrBackend::maskMsr(const std::string& resource, unsigned clos, int, std::uint32_t* msrOut)
{
    const bool l2 = resource.rfind("L2", 0) == 0;
    const std::uint32_t base = l2 ? msr::IA32_L2_MASK_0 : msr::IA32_L3_MASK_0;
    std::uint32_t index = clos;
    // Table 20-19: with CDP, CLOS n's data mask is MASK_2n and its code mask MASK_2n+1.
    if (resource.ends_with("DATA"))
        index = clos << 1;
    else if (resource.ends_with("CODE"))
        index = (clos << 1) + 1;
    *msrOut = base + index;
    return 0u;
}

Result<Schemata> MsrBackend::readSchemata(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    Group* g = find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    if (!g->isControl) return errnoError(EINVAL, "'" + path + "' is a monitor group: it has no schemata");
    const unsigned clos = g->clos;
    auto caps = capabilities();
    if (!caps) return caps.error();
    Schemata s;
    for (const auto& r : caps->resources) {
        for (int d : r.domains) {
            const bool l2 = r.name.rfind("L2", 0) == 0;
            const unsigned cpu = cpuOfDomain(d, l2);
            std::uint32_t address = 0;
            std::uint64_t value = 0;
            if (r.isCache()) {
                (void)maskMsr(r.name, clos, d, &address);
                auto v = m_msrs->read(cpu, address);
                if (!v) return v.error();
                value = *v & r.cbmMask;
                s.set(r.name, d, hexDigits(value));
            } else if (r.name == "MB") {
                auto v = m_msrs->read(cpu, msr::IA32_L2_QOS_EXT_BW_THRTL_0 + clos);
                if (!v) return v.error();
                const auto delay = static_cast<unsigned>(*v & 0xffff);
                s.set(r.name, d, std::to_string(delay >= 100 ? 0 : 100 - delay));
            } else if (r.name == "CBA") {
                auto v = m_msrs->read(cpu, msr::IA32_QOS_CORE_BW_THRTL_0 + clos / 8);
                if (!v) return v.error();
                s.set(r.name, d, std::to_string((*v >> (8 * (clos % 8))) & 0xff));
            }
        }
    }
    return s;
}

Status MsrBackend::applySchemata(const std::string& path, const Schemata& change)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    Group* g = find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    if (!g->isControl) return errnoError(EINVAL, "'" + path + "' is a monitor group: it has no schemata");
    const unsigned clos = g->clos;
    auto caps = capabilities();
    if (!caps) return caps.error();
    // All lines of one change or none: every MSR written is logged, and any failure rolls all of them back.
    MsrUndoLog log(*m_msrs);
    auto fail = [&](Error e) { return rollBack(std::move(e), log, saveTable()); };
    for (const auto& line : change.lines()) {
        const auto* r = caps->resource(line.resource);
        if (!r) return fail(errnoError(EINVAL, "Unknown or unsupported resource name '" + line.resource + "'"));
        for (const auto& [d, text] : line.values) {
            const bool l2 = r->name.rfind("L2", 0) == 0;
            std::vector<unsigned> targets { cpuOfDomain(d, l2) };
            std::uint32_t address = 0;
            std::uint64_t value = 0;
            std::uint64_t readMask = ~0ULL;
            if (r->isCache()) {
                auto m = parseMask(text);
                if (!m) return fail(errnoError(EINVAL, m.error().message));
                (void)maskMsr(r->name, clos, d, &address);
                value = *m;
            } else if (r->name == "MB") {
                auto p = parseBandwidth(text);
                if (!p || *p > 100) return fail(errnoError(EINVAL, "Invalid MB value " + text));
                // The MSR holds a delay (20.19.7.2): 100 - percent. Linear delays are multiples of the
                // granularity (rounded down by hardware, so round here to read back what sticks); non-linear
                // delays are powers of two.
                unsigned delay = 100 - static_cast<unsigned>(*p);
                if (m_enum.mbaLinear && r->bandwidthGran > 1)
                    delay = delay / r->bandwidthGran * r->bandwidthGran;
                else if (!m_enum.mbaLinear && delay > 0)
                    delay = std::bit_floor(delay);
                address = msr::IA32_L2_QOS_EXT_BW_THRTL_0 + clos;
                value = delay;
                readMask = 0xffff;
            } else if (r->name == "CBA") {
                auto lvl = parseBandwidth(text);
                if (!lvl || *lvl > 0xff) return fail(errnoError(EINVAL, "Invalid CBA level " + text));
                address = msr::IA32_QOS_CORE_BW_THRTL_0 + clos / 8;
                // Per logical processor scope (20.19.8.3): every CPU of the domain gets the level.
                targets.clear();
                for (std::size_t c = 0; c < m_enum.l3IdOfCpu.size(); ++c)
                    if (m_enum.l3IdOfCpu[c] == d) targets.push_back(static_cast<unsigned>(c));
                if (targets.empty()) targets.push_back(0);
                value = *lvl;
            }
            for (unsigned cpu : targets) {
                std::uint64_t toWrite = value;
                if (r->name == "CBA") {
                    auto cur = log.read(cpu, address);
                    if (!cur) return fail(cur.error());
                    const unsigned shift = 8 * (clos % 8);
                    toWrite = (*cur & ~(0xffULL << shift)) | (value << shift);
                }
                if (auto w = log.write(cpu, address, toWrite); !w) {
                    Error e = w.error();
                    e.message = "WRMSR " + hexDigits(address) + " <- " + hexDigits(toWrite) + " on CPU "
                        + std::to_string(cpu) + " for " + r->name + ":" + std::to_string(d) + "=" + text + " failed";
                    if (e.code == EIO)
                        e.advice = "#GP(0): a reserved bit, a CLOS above the maximum, or a mask the CPU does not "
                                   "accept (zero or non-contiguous; SDM 20.19.4.3, 20.19.6.3, 20.19.7.2)";
                    return fail(std::move(e));
                }
                auto back = m_msrs->read(cpu, address);
                if (!back) return fail(back.error());
                if ((*back & readMask) != (toWrite & readMask))
                    return fail(errnoError(EIO,
                        "MSR " + hexDigits(address) + " on CPU " + std::to_string(cpu) + " reads " + hexDigits(*back)
                            + " after writing " + hexDigits(toWrite)));
            }
        }
    }
    return {};
}

Result<std::uint64_t> MsrBackend::readMonitor(
    int domain, unsigned rmid, std::uint32_t eventId, std::uint32_t* flags, bool* overflow)
{
    std::lock_guard lock(m_mutex); // 20.18.7: the EVTSEL/CTR pair is a critical section
    const unsigned cpu = cpuOfDomain(domain, false);
    const std::uint64_t sel = (std::uint64_t(rmid) << 32) | eventId;
    if (auto w = m_msrs->write(cpu, msr::IA32_QM_EVTSEL, sel); !w) return w.error();
    auto v = m_msrs->read(cpu, msr::IA32_QM_CTR);
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

Result<GroupCounters> MsrBackend::readCounters(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    const Group* g = find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    if (m_enum.maxRmid == 0)
        return errnoError(ENOENT, "no RDT monitoring on this CPU", "CPUID.07H.00H:EBX[12] is 0; use --source sim");
    // As resctrl does, a control group's numbers include its monitor groups' RMIDs.
    std::vector<unsigned> rmids { g->rmid };
    if (g->isControl)
        for (const auto& o : m_groups)
            if (!o.isControl && o.parent == path) rmids.push_back(o.rmid);
    const std::uint64_t widthMask = fullMask(m_enum.mbmWidth);
    GroupCounters out;
    out.group = path;
    out.bytesPerUnit = m_enum.upscalingFactor;
    for (int d : domainsOf(m_enum.l3IdOfCpu)) {
        CounterReading c;
        c.domain = d;
        for (unsigned rmid : rmids) {
            if (m_enum.llcOccupancy) {
                auto v = readMonitor(d, rmid, msr::EVENT_L3_OCCUPANCY, &c.flags, nullptr);
                if (!v) return v.error();
                c.occupancyBytes += *v * m_enum.upscalingFactor;
            }
            if (m_enum.mbmTotal) {
                bool ovf = false;
                auto v = readMonitor(d, rmid, msr::EVENT_L3_TOTAL_BW, &c.flags, &ovf);
                if (!v) return v.error();
                c.mbmTotalRaw = (c.mbmTotalRaw + *v) & widthMask; // sums stay differencable modulo 2^width
                c.mbmTotalOverflow |= ovf;
            }
            if (m_enum.mbmLocal) {
                bool ovf = false;
                auto v = readMonitor(d, rmid, msr::EVENT_L3_LOCAL_BW, &c.flags, &ovf);
                if (!v) return v.error();
                c.mbmLocalRaw = (c.mbmLocalRaw + *v) & widthMask;
                c.mbmLocalOverflow |= ovf;
            }
        }
        out.domains.push_back(c);
    }
    return out;
}

Status MsrBackend::setCdp(const std::string& level, bool enable)
{
    std::lock_guard lock(m_mutex);
    const bool l3 = level == "L3";
    if (!l3 && level != "L2") return errnoError(EINVAL, "CDP exists for L3 and L2, not '" + level + "'");
    if (!(l3 ? m_enum.l3Cdp : m_enum.l2Cdp))
        return errnoError(
            ENODEV, level + " CDP is not enumerated", "CPUID.10H.0" + std::string(l3 ? "1" : "2") + "H:ECX[2] is 0");
    bool& state = l3 ? m_cdpL3 : m_cdpL2;
    if (state == enable) return {};
    const unsigned maxClos = l3 ? m_enum.l3MaxClos : m_enum.l2MaxClos;
    if (enable) {
        // 20.19.6.2: only CLOS valid under CDP (the lower half) may be in use.
        for (const auto& g : m_groups)
            if (g.isControl && g.clos > (maxClos >> 1))
                return errnoError(EBUSY,
                    "group '" + g.path + "' uses CLOS " + std::to_string(g.clos) + ", beyond the "
                        + std::to_string((maxClos >> 1) + 1) + " CLOS available with CDP",
                    "remove it before enabling CDP");
    }
    // The four steps as one change: a failure anywhere (on any domain or CPU) restores every mask, association
    // and QOS_CFG written, so CDP is never left on some domains only.
    TableState saved = saveTable();
    MsrUndoLog log(*m_msrs);
    auto fail = [&](Error e) { return rollBack(std::move(e), log, std::move(saved)); };
    const auto& ids = l3 ? m_enum.l3IdOfCpu : m_enum.l2IdOfCpu;
    const auto domains = domainsOf(ids);
    const std::uint32_t maskBase = l3 ? msr::IA32_L3_MASK_0 : msr::IA32_L2_MASK_0;
    const std::uint64_t ones = fullMask(l3 ? m_enum.l3CbmLength : m_enum.l2CbmLength);
    // 1. All masks to 1s on every domain, so no CLOS is left with a mask meant for another (20.19.6.2).
    for (int d : domains)
        for (unsigned n = 0; n <= maxClos; ++n)
            if (auto w = log.write(cpuOfDomain(d, !l3), maskBase + n, ones); !w) return fail(w.error());
    // 2. Every CPU to CLOS0 while mask interpretations change.
    for (unsigned c = 0; c < m_msrs->cpuCount(); ++c) {
        if (!online(c)) continue;
        auto cur = log.read(c, msr::IA32_PQR_ASSOC);
        if (!cur) return fail(cur.error());
        if (auto w = log.write(c, msr::IA32_PQR_ASSOC, *cur & 0xffffffffULL); !w) return fail(w.error());
    }
    // 3. Toggle the enable bit on every domain (QOS_CFG has the cache's scope).
    for (int d : domains)
        if (auto w = log.write(cpuOfDomain(d, !l3), l3 ? msr::IA32_L3_QOS_CFG : msr::IA32_L2_QOS_CFG, enable ? 1 : 0);
            !w)
            return fail(w.error());
    state = enable;
    // 4. Restore the associations.
    for (unsigned c = 0; c < m_msrs->cpuCount(); ++c)
        if (online(c))
            if (auto w = writeAssoc(c, log); !w) return fail(w.error());
    return {};
}

} // namespace rdt

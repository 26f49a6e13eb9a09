// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrAllocation.h"

#include "MsrAssociation.h"
#include "MsrBits.h"
#include "MsrCapabilities.h"
#include "core/Text.h"

#include "GroupNames.h"
#include "Sample.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>

namespace rdt {

MsrAllocation::MsrAllocation(
    MsrSpace& msrs, const MsrRdtEnumeration& enumeration, const MsrTopology& topology, MsrGroupTable& table)
    : m_msrs(msrs)
    , m_enum(enumeration)
    , m_topology(topology)
    , m_table(table)
{ }

Capabilities MsrAllocation::capabilities() const
{
    return msrCapabilities(m_enum, m_topology, m_table.cdpL3, m_table.cdpL2);
}

std::uint32_t MsrAllocation::maskMsr(const std::string& resource, unsigned clos) const
{
    const bool l2 = resource.rfind("L2", 0) == 0;
    const std::uint32_t base = l2 ? msr::IA32_L2_MASK_0 : msr::IA32_L3_MASK_0;
    std::uint32_t index = clos;
    // Table 20-19: with CDP, CLOS n's data mask is MASK_2n and its code mask MASK_2n+1.
    if (resource.ends_with("DATA"))
        index = clos << 1;
    else if (resource.ends_with("CODE"))
        index = (clos << 1) + 1;
    return base + index;
}

Result<Schemata> MsrAllocation::readSchemata(const std::string& path)
{
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    MsrGroup* g = m_table.find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    if (!g->isControl) return errnoError(EINVAL, "'" + path + "' is a monitor group: it has no schemata");
    const unsigned clos = g->clos;
    const auto caps = capabilities();
    Schemata s;
    for (const auto& r : caps.resources) {
        for (int d : r.domains) {
            const bool l2 = r.name.rfind("L2", 0) == 0;
            const unsigned cpu = m_topology.cpuOfDomain(d, l2);
            std::uint32_t address = 0;
            std::uint64_t value = 0;
            if (r.isCache()) {
                address = maskMsr(r.name, clos);
                auto v = m_msrs.read(cpu, address);
                if (!v) return v.error();
                value = *v & r.cbmMask;
                s.set(r.name, d, hexDigits(value));
            } else if (r.name == "MB") {
                auto v = m_msrs.read(cpu, msr::IA32_L2_QOS_EXT_BW_THRTL_0 + clos);
                if (!v) return v.error();
                const auto delay = static_cast<unsigned>(*v & 0xffff);
                s.set(r.name, d, std::to_string(delay >= 100 ? 0 : 100 - delay));
            } else if (r.name == "CBA") {
                auto v = m_msrs.read(cpu, msr::IA32_QOS_CORE_BW_THRTL_0 + clos / 8);
                if (!v) return v.error();
                s.set(r.name, d, std::to_string((*v >> (8 * (clos % 8))) & 0xff));
            }
        }
    }
    return s;
}

Status MsrAllocation::applySchemata(const std::string& path, const Schemata& change)
{
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    MsrGroup* g = m_table.find(path);
    if (!g) return errnoError(ENOENT, "no group '" + path + "'", "list groups with `groups list`");
    if (!g->isControl) return errnoError(EINVAL, "'" + path + "' is a monitor group: it has no schemata");
    const unsigned clos = g->clos;
    const auto caps = capabilities();
    // All lines of one change or none: every MSR written is logged, and any failure rolls all of them back.
    MsrUndoLog log(m_msrs);
    auto fail = [&](Error e) { return m_table.rollBack(std::move(e), log, m_table.save()); };
    for (const auto& line : change.lines()) {
        const auto* r = caps.resource(line.resource);
        if (!r) return fail(errnoError(EINVAL, "Unknown or unsupported resource name '" + line.resource + "'"));
        for (const auto& [d, text] : line.values) {
            const bool l2 = r->name.rfind("L2", 0) == 0;
            std::vector<unsigned> targets { m_topology.cpuOfDomain(d, l2) };
            std::uint32_t address = 0;
            std::uint64_t value = 0;
            std::uint64_t readMask = ~0ULL;
            if (r->isCache()) {
                auto m = parseMask(text);
                if (!m) return fail(errnoError(EINVAL, m.error().message));
                address = maskMsr(r->name, clos);
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
                auto back = m_msrs.read(cpu, address);
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

Status MsrAllocation::setCdp(const std::string& level, bool enable)
{
    const bool l3 = level == "L3";
    if (!l3 && level != "L2") return errnoError(EINVAL, "CDP exists for L3 and L2, not '" + level + "'");
    if (!(l3 ? m_enum.l3Cdp : m_enum.l2Cdp))
        return errnoError(
            ENODEV, level + " CDP is not enumerated", "CPUID.10H.0" + std::string(l3 ? "1" : "2") + "H:ECX[2] is 0");
    bool& state = l3 ? m_table.cdpL3 : m_table.cdpL2;
    if (state == enable) return {};
    const unsigned maxClos = l3 ? m_enum.l3MaxClos : m_enum.l2MaxClos;
    if (enable) {
        // 20.19.6.2: only CLOS valid under CDP (the lower half) may be in use.
        for (const auto& g : m_table.groups)
            if (g.isControl && g.clos > (maxClos >> 1))
                return errnoError(EBUSY,
                    "group '" + g.path + "' uses CLOS " + std::to_string(g.clos) + ", beyond the "
                        + std::to_string((maxClos >> 1) + 1) + " CLOS available with CDP",
                    "remove it before enabling CDP");
    }
    // The four steps as one change: a failure anywhere (on any domain or CPU) restores every mask, association
    // and QOS_CFG written, so CDP is never left on some domains only.
    MsrGroupTable::Snapshot saved = m_table.save();
    MsrUndoLog log(m_msrs);
    auto fail = [&](Error e) { return m_table.rollBack(std::move(e), log, std::move(saved)); };
    const auto& ids = l3 ? m_enum.l3IdOfCpu : m_enum.l2IdOfCpu;
    const auto domains = m_topology.domainsOf(ids);
    const std::uint32_t maskBase = l3 ? msr::IA32_L3_MASK_0 : msr::IA32_L2_MASK_0;
    const std::uint64_t ones = fullMask(l3 ? m_enum.l3CbmLength : m_enum.l2CbmLength);
    // 1. All masks to 1s on every domain, so no CLOS is left with a mask meant for another (20.19.6.2).
    for (int d : domains)
        for (unsigned n = 0; n <= maxClos; ++n)
            if (auto w = log.write(m_topology.cpuOfDomain(d, !l3), maskBase + n, ones); !w) return fail(w.error());
    // 2. Every CPU to CLOS0 while mask interpretations change.
    for (unsigned c = 0; c < m_msrs.cpuCount(); ++c) {
        if (!m_topology.online(c)) continue;
        auto cur = log.read(c, msr::IA32_PQR_ASSOC);
        if (!cur) return fail(cur.error());
        if (auto w = log.write(c, msr::IA32_PQR_ASSOC, *cur & 0xffffffffULL); !w) return fail(w.error());
    }
    // 3. Toggle the enable bit on every domain (QOS_CFG has the cache's scope).
    for (int d : domains)
        if (auto w = log.write(
                m_topology.cpuOfDomain(d, !l3), l3 ? msr::IA32_L3_QOS_CFG : msr::IA32_L2_QOS_CFG, enable ? 1 : 0);
            !w)
            return fail(w.error());
    state = enable;
    // 4. Restore the associations.
    for (unsigned c = 0; c < m_msrs.cpuCount(); ++c)
        if (m_topology.online(c))
            if (auto w = writeAssociation(m_msrs, log, m_table, c); !w) return fail(w.error());
    return {};
}

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
// The resctrl kernel emulation: schemata, size, mode, bit_usage and a new group's initial allocation
// (fs/resctrl/ctrlmondata.c parse_line/parse_cbm/cbm_validate/parse_bw/bw_validate, rdtgroup.c
// __init_one_rdt_domain, rdt_bit_usage_show, rdtgroup_mode_write; docs/RESCTRL.md).
#include "SimResctrlControls.h"

#include "SimMachine.h"
#include "SimResctrlGroups.h"
#include "core/Text.h"

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace rdt::sim {
namespace {

/// strsep(&s, delim) for one delimiter character: returns the token, s becomes the rest (nullopt at the end).
std::string strsep(std::optional<std::string>& s, char delim)
{
    std::string all = *s;
    auto pos = all.find(delim);
    if (pos == std::string::npos) {
        s.reset();
        return all;
    }
    s = all.substr(pos + 1);
    return all.substr(0, pos);
}

/// kstrtoul(s, base): optional '+', for base 16 an optional 0x prefix, digits only, no overflow.
bool kstrtoul(const std::string& in, int base, unsigned long long& out, unsigned long long max)
{
    std::string s = in;
    if (!s.empty() && s.back() == '\n') s.pop_back();
    if (!s.empty() && s[0] == '+') s.erase(0, 1);
    if (base == 16 && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.erase(0, 2);
    if (s.empty()) return false;
    unsigned long long v = 0;
    for (char c : s) {
        int d = c >= '0' && c <= '9'             ? c - '0'
            : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10
            : base == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (d < 0) return false;
        if (v > (max - unsigned(d)) / unsigned(base)) return false;
        v = v * unsigned(base) + unsigned(d);
    }
    out = v;
    return true;
}

} // namespace

SimResctrlControls::SimResctrlControls(
    SimMachine& machine, const ResctrlMountOptions& options, const SimResctrlGroups& groups, SimCmdStatus& status)
    : m_machine(machine)
    , m_options(options)
    , m_groups(groups)
    , m_status(status)
    , m_bandwidth(machine.options().dialect, machine.l3DomainCount(), machine.features().l3Cat.numClos)
{ }

void SimResctrlControls::init()
{
    const SimFeatures& f = m_machine.features();
    // Schema order as schemata_list_create builds it: L3 (CODE before DATA), L2, MB.
    auto addCache = [&](const CatCaps& cat, SchemaKind kind, bool cdp, const char* base) {
        if (!cat.present) return;
        if (cdp) {
            m_schemas.push_back({ std::string(base) + "CODE", kind, CdpType::Code, cat.numClos / 2 });
            m_schemas.push_back({ std::string(base) + "DATA", kind, CdpType::Data, cat.numClos / 2 });
        } else {
            m_schemas.push_back({ base, kind, CdpType::None, cat.numClos });
        }
    };
    addCache(f.l3Cat, SchemaKind::L3, m_options.cdp, "L3");
    addCache(f.l2Cat, SchemaKind::L2, m_options.cdpl2, "L2");
    // MPAM emulates CDP with a pair of PARTIDs per group, which MBW_MAX would count twice: the MPAM driver offers
    // no MB while CDP is on (docs/RESCTRL.md "Dialects").
    const bool mpamCdp = m_machine.options().dialect == ResctrlDialect::ArmMpam && (m_options.cdp || m_options.cdpl2);
    if (f.mba.present && !mpamCdp) m_schemas.push_back({ "MB", SchemaKind::MB, CdpType::None, f.mba.numClos });
    for (auto& s : m_bandwidth.schemas())
        m_schemas.push_back(std::move(s));
}

std::uint32_t SimResctrlControls::closidsSupported() const
{
    std::uint32_t n = 0;
    for (const auto& s : m_schemas)
        n = n == 0 ? s.numClosid : std::min(n, s.numClosid);
    return n;
}

const CatCaps& SimResctrlControls::catOf(const Schema& s) const
{
    return s.kind == SchemaKind::L2 ? m_machine.features().l2Cat : m_machine.features().l3Cat;
}

unsigned SimResctrlControls::domainCount(const Schema& s) const
{
    return s.kind == SchemaKind::L2 ? m_machine.coreCount() : m_machine.l3DomainCount(); // L3, MB and the rest
}

std::uint32_t SimResctrlControls::ctrlValue(const Schema& s, unsigned domain, std::uint32_t closid) const
{
    // Table 20-19: with CDP, CLOS n's data mask is MSR index 2n and its code mask 2n+1.
    std::uint32_t index = s.type == CdpType::None ? closid : s.type == CdpType::Data ? 2 * closid : 2 * closid + 1;
    switch (s.kind) {
    case SchemaKind::L3:
        return m_machine.l3Mask(domain, index);
    case SchemaKind::L2:
        return m_machine.l2Mask(domain, index);
    case SchemaKind::MB:
        if (m_machine.features().mba.absolute()) return m_machine.mbaDelay(domain, closid); // AMD: the limit itself
        return 100 - std::min<std::uint32_t>(100, m_machine.mbaDelay(domain, closid));
    case SchemaKind::MbMin:
    case SchemaKind::MbWeight:
    case SchemaKind::MbRegion:
        return m_bandwidth.value(s, domain, closid);
    }
    return 0;
}

void SimResctrlControls::setCtrlValue(const Schema& s, unsigned domain, std::uint32_t closid, std::uint32_t value)
{
    std::uint32_t index = s.type == CdpType::None ? closid : s.type == CdpType::Data ? 2 * closid : 2 * closid + 1;
    switch (s.kind) {
    case SchemaKind::L3:
        m_machine.setL3Mask(domain, index, value);
        break;
    case SchemaKind::L2:
        m_machine.setL2Mask(domain, index, value);
        break;
    case SchemaKind::MB:
        if (m_machine.features().mba.absolute())
            m_machine.setMbaDelay(domain, closid, value); // AMD: the MSR holds the limit
        else
            m_machine.setMbaDelay(domain, closid, 100 - value); // delay_bw_map: MAX_MBA_BW - bw
        break;
    case SchemaKind::MbMin:
    case SchemaKind::MbWeight:
    case SchemaKind::MbRegion:
        m_bandwidth.set(s, domain, closid, value);
        break;
    }
}

bool SimResctrlControls::cbmOverlaps(
    const Schema& s, unsigned domain, std::uint32_t cbm, std::uint32_t closid, bool exclusive) const
{
    const CatCaps& cat = catOf(s);
    if (!exclusive && (cbm & cat.shareableBits)) // regions used by hardware directly
        return true;
    auto check = [&](CdpType type) {
        Schema peer = s;
        peer.type = type;
        for (std::uint32_t i = 0; i < m_groups.closidUsed().size(); ++i) {
            if (!m_groups.closidUsed()[i] || i == closid) continue;
            if (cbm & ctrlValue(peer, domain, i)) {
                if (!exclusive) return true;
                if (m_groups.modeOfClosid(i) == "exclusive") return true;
            }
        }
        return false;
    };
    if (check(s.type)) return true;
    if (s.type != CdpType::None) return check(s.type == CdpType::Code ? CdpType::Data : CdpType::Code);
    return false;
}

std::string SimResctrlControls::formatSchemata(const ResctrlGroup& g, bool size) const
{
    // Names right-aligned to the longest; a CDP-capable resource without CDP is padded as if "CODE" followed.
    std::size_t width = 0;
    for (const auto& s : m_schemas) {
        std::size_t w = s.name.size();
        if (s.isCache() && s.type == CdpType::None && catOf(s).cdp) w += 4;
        width = std::max(width, w);
    }
    // AMD: show_doms prints every value "%d=%0*x" / "%d=%*u" padded to the widest resource's data_width (cache:
    // (cbm_len + 3) / 4 hex digits, AMD MBA: 4). The Intel presets do not pad yet (unfinished: the kernel pads there
    // too, MB data_width 3).
    const bool pad = m_machine.features().amd;
    unsigned dataWidth = m_machine.features().mba.present ? 4 : 0;
    for (const auto& s : m_schemas)
        if (s.isCache()) dataWidth = std::max(dataWidth, (catOf(s).cbmLen + 3) / 4);
    auto padded = [&](std::string v, char fill) {
        return pad && v.size() < dataWidth ? std::string(dataWidth - v.size(), fill) + v : v;
    };
    std::string out;
    for (const auto& s : m_schemas) {
        if (g.closid >= s.numClosid) continue;
        out += std::string(width - std::min(width, s.name.size()), ' ') + s.name + ":";
        for (unsigned d = 0; d < domainCount(s); ++d) {
            std::uint32_t v = ctrlValue(s, d, g.closid);
            if (d) out += ";";
            if (size && s.isCache()) {
                const SimFeatures& f = m_machine.features();
                // rdtgroup_cbm_to_size: with SNC an L3 CBM bit covers its share of one node's part of the cache.
                std::uint64_t cacheSize = s.kind == SchemaKind::L2
                    ? f.l2.sizeBytes()
                    : f.l3.sizeBytes() / std::max(1u, m_machine.options().topology.sncNodes);
                out += std::to_string(d) + "="
                    + std::to_string(cacheSize / catOf(s).cbmLen * unsigned(std::popcount(v)));
            } else if (!s.isCache()) {
                out += std::to_string(d) + "=" + padded(std::to_string(v), ' ');
            } else {
                out += std::to_string(d) + "=" + padded(hexDigits(v), '0');
            }
        }
        out += "\n";
    }
    return out;
}

Status SimResctrlControls::writeSchemata(ResctrlGroup& g, const std::string& data)
{
    // "Valid input requires a trailing newline": checked before the status is cleared, so it stays as it was.
    if (data.empty() || data.back() != '\n')
        return errnoError(EINVAL, "cannot write schemata: no trailing newline",
            "the kernel rejects a schemata write without a trailing newline, silently (info/last_cmd_status "
            "unchanged)");
    if (!g.ctrl) return errnoError(ENOENT, "monitor groups have no schemata");
    m_status.clear();
    auto fail = [&](const std::string& text) {
        m_status.set(text);
        return errnoError(EINVAL, "cannot write schemata: " + text);
    };
    std::map<std::pair<std::size_t, unsigned>, std::uint32_t> staged;
    std::optional<std::string> buf = data.substr(0, data.size() - 1);
    const SimFeatures& f = m_machine.features();
    while (buf) {
        std::optional<std::string> tok = strsep(buf, '\n');
        std::string resname = std::string(trim(strsep(tok, ':')));
        if (!tok) return fail("Missing ':'");
        if (tok->empty()) return fail("Missing '" + resname + "' value");
        std::size_t si = m_schemas.size();
        for (std::size_t i = 0; i < m_schemas.size(); ++i)
            if (m_schemas[i].name == resname && g.closid < m_schemas[i].numClosid) si = i;
        if (si == m_schemas.size()) return fail("Unknown or unsupported resource name '" + resname + "'");
        const Schema& s = m_schemas[si];
        std::optional<std::string> line = *tok;
        while (line && !line->empty()) {
            std::optional<std::string> dom = strsep(line, ';');
            std::string id = strsep(dom, '=');
            unsigned long long domId = 0;
            if (!dom || !kstrtoul(id, 10, domId, 0xFFFFFFFFull)) return fail("Missing '=' or non-numeric domain");
            std::string val = std::string(trim(*dom));
            if (domId >= domainCount(s)) // an unknown domain id: -EINVAL without a status text
                return errnoError(EINVAL,
                    "cannot write schemata: no domain " + std::to_string(domId) + " for " + s.name,
                    "the kernel rejects unknown domain ids silently; see the domains in info/ and mon_data/");
            auto key = std::make_pair(si, unsigned(domId));
            if (staged.count(key)) return fail("Duplicate domain " + std::to_string(domId));
            if (s.kind == SchemaKind::MB) {
                // bw_validate: AMD has no arch_needs_linear, min_bw 0, max_bw MAX_MBA_BW_AMD (2048), bw_gran 1.
                if (!f.mba.linear && !f.mba.absolute()) return fail("No support for non-linear MB domains");
                unsigned long long bw = 0;
                if (!kstrtoul(val, 10, bw, 0xFFFFFFFFull)) return fail("Invalid MB value " + val);
                const unsigned gran = f.mba.absolute() ? 1 : f.mba.maxDelay <= 100 ? 100 - f.mba.maxDelay : 1;
                const unsigned minBw = f.mba.absolute() ? 0 : gran, maxBw = f.mba.absolute() ? f.mba.maxBandwidth : 100;
                if (bw < minBw || bw > maxBw)
                    return fail("MB value " + std::to_string(bw) + " out of range [" + std::to_string(minBw) + ","
                        + std::to_string(maxBw) + "]");
                staged[key] = static_cast<std::uint32_t>((bw + gran - 1) / gran * gran); // roundup(bw, bw_gran)
                continue;
            }
            if (!s.isCache()) {
                // CBQRI and region-aware controls; an MB_MIN over the budget is EINVAL (the CBQRI resctrl.rst).
                unsigned long long v = 0;
                if (!kstrtoul(val, 10, v, 0xFFFFFFFFull)) return fail("Invalid " + s.name + " value " + val);
                if (auto why = m_bandwidth.check(s, unsigned(domId), g.closid, v, m_groups.closidUsed()); !why.empty())
                    return fail(why);
                staged[key] = static_cast<std::uint32_t>(v);
                continue;
            }
            const CatCaps& cat = catOf(s);
            unsigned long long v = 0;
            if (!kstrtoul(val, 16, v, ~0ull)) return fail("Non-hex character in the mask " + val);
            if ((m_options.minCbmBits > 0 && v == 0) || v > cat.fullMask()) return fail("Mask out of range");
            auto cbm = static_cast<std::uint32_t>(v);
            const int first = std::countr_zero(cbm);
            const int zero = first + std::countr_one(cbm >> first);
            if (!cat.sparse && (cbm >> zero) != 0) {
                return fail("The mask " + hexDigits(v) + " has non-consecutive 1-bits");
            }
            if (unsigned(zero - first) < m_options.minCbmBits)
                return fail("Need at least " + std::to_string(m_options.minCbmBits) + " bits in the mask");
            if (cbmOverlaps(s, unsigned(domId), cbm, g.closid, true)) return fail("Overlaps with exclusive group");
            if (cbmOverlaps(s, unsigned(domId), cbm, g.closid, false) && g.mode == "exclusive")
                return fail("Overlaps with other group");
            staged[key] = cbm;
        }
    }
    for (const auto& [key, value] : staged)
        setCtrlValue(m_schemas[key.first], key.second, g.closid, value);
    return {};
}

Status SimResctrlControls::writeMode(ResctrlGroup& g, const std::string& data)
{
    if (data.empty() || data.back() != '\n') return errnoError(EINVAL, "cannot write mode: no trailing newline");
    std::string buf = data.substr(0, data.size() - 1);
    m_status.clear();
    if (buf == g.mode) return {};
    if (buf == "shareable") {
        g.mode = buf;
        return {};
    }
    if (buf == "exclusive") {
        bool hasCache = false;
        for (const auto& s : m_schemas) {
            if (!s.isCache()) continue;
            hasCache = true;
            for (unsigned d = 0; d < domainCount(s); ++d)
                if (cbmOverlaps(s, d, ctrlValue(s, d, g.closid), g.closid, false)) {
                    m_status.set("Schemata overlaps");
                    return errnoError(EINVAL, "cannot write mode: Schemata overlaps");
                }
        }
        if (!hasCache) {
            m_status.set("Cannot be exclusive without CAT/CDP");
            return errnoError(EINVAL, "cannot write mode: Cannot be exclusive without CAT/CDP");
        }
        g.mode = buf;
        return {};
    }
    // pseudo-locksetup needs cache pseudo-locking, which the simulator does not model.
    m_status.set("Unknown or unsupported mode");
    return errnoError(EINVAL, "cannot write mode: Unknown or unsupported mode");
}

std::string SimResctrlControls::bitUsage(const Schema& s) const
{
    const CatCaps& cat = catOf(s);
    std::string out;
    for (unsigned d = 0; d < domainCount(s); ++d) {
        std::uint32_t sw = 0, excl = 0;
        for (std::uint32_t i = 0; i < m_groups.closidUsed().size(); ++i) {
            if (!m_groups.closidUsed()[i]) continue;
            std::uint32_t v = ctrlValue(s, d, i);
            (m_groups.modeOfClosid(i) == "exclusive" ? excl : sw) |= v;
        }
        if (d) out += ";";
        out += std::to_string(d) + "=";
        for (int b = int(cat.cbmLen) - 1; b >= 0; --b) {
            bool hw = (cat.shareableBits >> b) & 1, swb = (sw >> b) & 1, ex = (excl >> b) & 1;
            out += hw && swb ? 'X' : hw ? 'H' : swb ? 'S' : ex ? 'E' : '0';
        }
    }
    return out + "\n";
}

Status SimResctrlControls::initAllocation(ResctrlGroup& g)
{
    std::map<std::pair<std::size_t, unsigned>, std::uint32_t> staged;
    for (std::size_t si = 0; si < m_schemas.size(); ++si) {
        const Schema& s = m_schemas[si];
        for (unsigned d = 0; d < domainCount(s); ++d) {
            if (!s.isCache() && s.kind != SchemaKind::MB) continue; // SimBandwidthControls::initGroup below
            if (s.kind == SchemaKind::MB) {
                // rdtgroup_init_mba: the default control, no throttling (100 %, or AMD's 2048 = unlimited).
                staged[{ si, d }] = m_machine.features().mba.absolute() ? m_machine.features().mba.maxBandwidth : 100;
                continue;
            }
            // __init_one_rdt_domain: shareable hardware bits, plus what shareable groups use, plus unused bits.
            const CatCaps& cat = catOf(s);
            std::uint32_t used = cat.shareableBits, next = cat.shareableBits;
            for (std::uint32_t i = 0; i < m_groups.closidUsed().size(); ++i) {
                if (!m_groups.closidUsed()[i] || i == g.closid) continue;
                std::uint32_t v = ctrlValue(s, d, i);
                if (s.type != CdpType::None) {
                    Schema peer = s;
                    peer.type = s.type == CdpType::Code ? CdpType::Data : CdpType::Code;
                    v |= ctrlValue(peer, d, i);
                }
                used |= v;
                if (m_groups.modeOfClosid(i) == "shareable") next |= v;
            }
            next |= ~used & cat.fullMask();
            if (!cat.sparse && next) { // cbm_ensure_valid: keep the first contiguous run
                int first = std::countr_zero(next);
                int zero = first + std::countr_one(next >> first);
                if (zero < 32) next &= (1u << zero) - 1;
            }
            if (unsigned(std::popcount(next)) < m_options.minCbmBits) {
                m_status.set("No space on " + s.name + ":" + std::to_string(d));
                return errnoError(ENOSPC, "No space on " + s.name + ":" + std::to_string(d));
            }
            staged[{ si, d }] = next;
        }
    }
    // CBQRI: a new group reserves one block; mkdir fails when the budget has none left (the CBQRI resctrl.rst).
    if (auto why = m_bandwidth.initGroup(m_schemas, g.closid, m_groups.closidUsed()); !why.empty()) {
        m_status.set(why);
        return errnoError(ENOSPC, why);
    }
    for (const auto& [key, value] : staged)
        setCtrlValue(m_schemas[key.first], key.second, g.closid, value);
    return {};
}

} // namespace rdt::sim

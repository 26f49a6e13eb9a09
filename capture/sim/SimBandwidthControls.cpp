// SPDX-License-Identifier: GPL-3.0-or-later
// CBQRI's MB_MIN/MB_WGHT and region-aware MB_REGION<n>_* in the simulated kernel (docs/RESCTRL.md "Dialects"): the
// CBQRI branch's Documentation/filesystems/resctrl.rst and the CBQRI resctrl prototype (Drew Fustini's
// "CBQRI bandwidth allocation on the resctrl multiple-controls framework", June 2026: MB_MIN defaults to 1 block
// per RCID and RCID 0 holds the rest of MRBWB), and the 2026 "Generic schema description" RFC for resource_schemata.
#include "SimBandwidthControls.h"

#include <cerrno>

namespace rdt::sim {

SimBandwidthControls::SimBandwidthControls(ResctrlDialect dialect, unsigned domains, std::uint32_t numClosid)
    : m_dialect(dialect)
    , m_domains(domains)
    , m_numClosid(numClosid)
{ }

std::vector<Schema> SimBandwidthControls::schemas() const
{
    std::vector<Schema> out;
    if (m_dialect == ResctrlDialect::RiscvCbqri) {
        // Schemata order of the prototype: MB_WGHT before MB_MIN.
        out.push_back({ "MB_WGHT", SchemaKind::MbWeight, CdpType::None, m_numClosid });
        out.push_back({ "MB_MIN", SchemaKind::MbMin, CdpType::None, m_numClosid });
    }
    if (m_dialect == ResctrlDialect::RegionAware)
        for (int n = 0; n < kRegions; ++n)
            for (auto [bound, suffix] : { std::pair { RegionBound::Min, "_MIN" },
                     std::pair { RegionBound::Opt, "_OPT" }, std::pair { RegionBound::Max, "_MAX" } })
                out.push_back({ "MB_REGION" + std::to_string(n) + suffix, SchemaKind::MbRegion, CdpType::None,
                    m_numClosid, n, bound, false });
    return out;
}

std::uint32_t SimBandwidthControls::defaultValue(const Schema& s, std::uint32_t closid) const
{
    switch (s.kind) {
    case SchemaKind::MbMin:
        // Every RCID holds at least one block; RCID 0 (the default group) holds what the others do not.
        return closid == 0 ? kReservationBudget - (m_numClosid - 1) : 1;
    case SchemaKind::MbWeight:
        return 255;
    case SchemaKind::MbRegion:
        return s.bound == RegionBound::Min ? 1 : kRegionMax;
    default:
        return 0;
    }
}

std::uint32_t SimBandwidthControls::value(const Schema& s, unsigned domain, std::uint32_t closid) const
{
    auto it = m_values.find({ s.name, domain, closid });
    return it == m_values.end() ? defaultValue(s, closid) : it->second;
}

std::string SimBandwidthControls::check(
    const Schema& s, unsigned domain, std::uint32_t closid, unsigned long long v, const std::vector<bool>& used) const
{
    const std::string where = s.name + ":" + std::to_string(domain);
    switch (s.kind) {
    case SchemaKind::MbWeight:
        return v > 255 ? "MB_WGHT value " + std::to_string(v) + " out of range [0,255]" : "";
    case SchemaKind::MbRegion:
        return v < 1 || v > kRegionMax
            ? s.name + " value " + std::to_string(v) + " out of range [1," + std::to_string(kRegionMax) + "]"
            : "";
    case SchemaKind::MbMin: {
        if (v < 1 || v > kReservationBudget)
            return "MB_MIN value " + std::to_string(v) + " out of range [1," + std::to_string(kReservationBudget) + "]";
        unsigned long long held = 0;
        for (std::uint32_t c = 0; c < used.size() && c < m_numClosid; ++c)
            if (used[c] && c != closid) held += value(s, domain, c);
        if (held + v > kReservationBudget)
            return where + " reserving " + std::to_string(v) + " blocks exceeds the budget of "
                + std::to_string(kReservationBudget) + " (" + std::to_string(held) + " reserved by other groups)";
        return "";
    }
    default:
        return "not a bandwidth control of this dialect";
    }
}

void SimBandwidthControls::set(const Schema& s, unsigned domain, std::uint32_t closid, std::uint32_t v)
{
    m_values[{ s.name, domain, closid }] = v;
}

std::string SimBandwidthControls::initGroup(
    const std::vector<Schema>& schemas, std::uint32_t closid, const std::vector<bool>& used)
{
    for (const auto& s : schemas) {
        if (s.kind != SchemaKind::MbMin) continue;
        for (unsigned d = 0; d < m_domains; ++d)
            if (!check(s, d, closid, 1, used).empty())
                return "No unreserved bandwidth block left on " + s.name + ":" + std::to_string(d);
    }
    for (const auto& s : schemas)
        if (s.kind == SchemaKind::MbMin || s.kind == SchemaKind::MbWeight || s.kind == SchemaKind::MbRegion)
            for (unsigned d = 0; d < m_domains; ++d)
                set(s, d, closid, s.kind == SchemaKind::MbMin ? 1 : defaultValue(s, closid));
    return "";
}

std::vector<std::string> SimBandwidthControls::describedControls(const std::string& infoDir) const
{
    if (m_dialect == ResctrlDialect::RiscvCbqri && (infoDir == "MB_MIN" || infoDir == "MB_WGHT")) return { infoDir };
    if (m_dialect != ResctrlDialect::RegionAware || infoDir != "MB") return {};
    std::vector<std::string> out { "MB" };
    for (const auto& s : schemas())
        out.push_back(s.name);
    return out;
}

Result<std::string> SimBandwidthControls::describe(const std::string& control, const std::string& file) const
{
    // MB: the RFC's own Intel example (percent: unit all, resolution 100); the rest as this simulator defines them.
    struct Values {
        const char* type;
        std::uint32_t min, max, resolution;
        const char* unit;
    };
    Values v { "scalar linear", 10, 100, 100, "all" };
    if (control == "MB_MIN")
        v = { "scalar linear", 1, kReservationBudget, 1, "blocks" };
    else if (control == "MB_WGHT")
        v = { "scalar linear", 0, 255, 1, "weight" };
    else if (control.rfind("MB_REGION", 0) == 0)
        v = { "scalar linear", 1, kRegionMax, kRegionMax, "all" };
    else if (control != "MB")
        return errnoError(ENOENT, "no description of " + control);
    if (file == "type") return std::string(v.type) + "\n";
    if (file == "min") return std::to_string(v.min) + "\n";
    if (file == "max") return std::to_string(v.max) + "\n";
    if (file == "resolution") return std::to_string(v.resolution) + "\n";
    if (file == "scale") return std::string("1\n");
    if (file == "tolerance") return std::string("0\n");
    if (file == "unit") return std::string(v.unit) + "\n";
    if (file == "scope") return std::string("L3\n");
    return errnoError(ENOENT, "no file " + file + " in the description of " + control);
}

std::vector<std::string> SimBandwidthControls::legacyFiles(const Schema& s) const
{
    if (s.kind == SchemaKind::MbMin || s.kind == SchemaKind::MbWeight)
        return { "bandwidth_gran", "min_bandwidth", "num_closids", "resource_schemata" };
    return {};
}

Result<std::string> SimBandwidthControls::readLegacy(const Schema& s, const std::string& file) const
{
    if (file == "min_bandwidth") return std::string(s.kind == SchemaKind::MbMin ? "1\n" : "0\n");
    if (file == "bandwidth_gran") return std::string("1\n");
    return errnoError(ENOENT, "no such info file " + s.name + "/" + file);
}

} // namespace rdt::sim

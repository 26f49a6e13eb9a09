// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimPmuModel.h"

#include <algorithm>

namespace rdt::pmu {

SimPmuModel simulatedPmuModel(const CpuFeatures& features)
{
    const auto& id = features.identity;
    if (!id.isIntel() || id.family != 6) return {};
    // DisplayModel values of the server and client parts (SDM Vol. 4, Table 2-1).
    switch (id.model) {
    case 0x8F: // Sapphire Rapids
    case 0xCF: // Emerald Rapids
        return { "spr", "Sapphire Rapids" };
    case 0x6A:
    case 0x6C: // Ice Lake-SP/-D
        return { "icx", "Ice Lake-SP" };
    case 0x7D:
    case 0x7E: // Ice Lake client
        return { "icl", "Ice Lake" };
    case 0x55: // Skylake-SP, Cascade Lake, Cooper Lake
        return { "skx", "Skylake-SP" };
    case 0x4E:
    case 0x5E:
    case 0x8E:
    case 0x9E: // Skylake, Kaby Lake, Coffee Lake client
        return { "skl", "Skylake" };
    case 0x4F:
    case 0x56: // Broadwell-EP/-DE
        return { "bdw_ep", "Broadwell" };
    case 0x3F: // Haswell-EP
        return { "hsw_ep", "Haswell" };
    default:
        break;
    }
    const auto events = features.perfmon.availableEvents();
    const bool slots = std::find(events.begin(), events.end(), "Topdown Slots") != events.end();
    return slots ? SimPmuModel { "icx", "Ice Lake-class" } : SimPmuModel { "skx", "Skylake-class" };
}

namespace {
/// Every model simulatedPmuModel picks, by libpfm4 name (the named generations' labels).
const SimPmuModel kModels[] = { { "spr", "Sapphire Rapids" }, { "icx", "Ice Lake-SP" }, { "icl", "Ice Lake" },
    { "skx", "Skylake-SP" }, { "skl", "Skylake" }, { "bdw_ep", "Broadwell" }, { "hsw_ep", "Haswell" } };
} // namespace

std::optional<SimPmuModel> simulatedPmuModelNamed(const std::string& pfmName)
{
    for (const auto& m : kModels)
        if (m.pfmName == pfmName) return m;
    return std::nullopt;
}

std::string simulatedPmuModelNames()
{
    std::string out;
    for (const auto& m : kModels)
        out += (out.empty() ? "" : ", ") + m.pfmName;
    return out;
}

} // namespace rdt::pmu

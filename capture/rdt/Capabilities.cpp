// SPDX-License-Identifier: GPL-3.0-or-later
// The values Capabilities and its parts (RdtBackend.h) work out from what a backend read; the same for every backend.
#include "RdtBackend.h"
#include "core/Text.h"

#include <algorithm>
#include <cstdint>

namespace rdt {

std::string ResourceCaps::defaultValue() const
{
    if (isCache()) {
        return hexDigits(cbmMask);
    }
    if (bandwidthUnit == BandwidthUnit::EighthGBps) return std::to_string(maxBandwidth);
    // A reservation or a region's minimum starts at the least (a new group reserves nothing it did not ask for);
    // a weight or a described cap at its most.
    if (role == api::BandwidthRole::Reserved || role == api::BandwidthRole::RegionMin)
        return std::to_string(minBandwidth);
    if (bandwidthUnit != BandwidthUnit::Percent) return std::to_string(maxBandwidth);
    return mbpsMode ? std::to_string(UINT32_MAX) : "100";
}

const ResourceCaps* Capabilities::resource(const std::string& n) const
{
    for (const auto& r : resources)
        if (r.name == n) return &r;
    return nullptr;
}

unsigned MonitorCaps::sncNodesPerL3() const
{
    std::size_t most = 1;
    for (const auto& [l3, nodes] : subDomains)
        most = std::max(most, nodes.size());
    return static_cast<unsigned>(most);
}

std::string Capabilities::bandwidthAbsentReason() const
{
    // The MPAM driver offers no MB while CDP is on (it emulates CDP with a pair of PARTIDs per group, which the
    // bandwidth controls would count twice): said when info/ shows that shape, never assumed from a vendor.
    const bool bandwidth = std::any_of(
        resources.begin(), resources.end(), [](const ResourceCaps& r) { return r.kind == ResourceKind::Bandwidth; });
    if (!(cdpL3 || cdpL2) || bandwidth || !monitoring.present || !monitoring.mbmTotal || monitoring.mbmLocal) return {};
    return "not offered while CDP is on: this resctrl counts total but no local bandwidth, as Arm MPAM does, and "
           "MPAM's driver hides MB under CDP because CDP takes two PARTIDs per group that its bandwidth controls "
           "would count twice; mount without -o cdp to control bandwidth";
}

unsigned Capabilities::maxMonitorGroups() const
{
    unsigned n = monitoring.present ? monitoring.numRmids : 0;
    if (telemetry.present && telemetry.numRmids > 0) n = n == 0 ? telemetry.numRmids : std::min(n, telemetry.numRmids);
    return n;
}

} // namespace rdt

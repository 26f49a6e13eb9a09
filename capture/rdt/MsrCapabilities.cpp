// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrCapabilities.h"

#include "MsrBits.h"

#include <algorithm>
#include <cstdint>

namespace rdt {

Capabilities msrCapabilities(const MsrRdtEnumeration& enumeration, const MsrTopology& topology, bool cdpL3, bool cdpL2)
{
    Capabilities caps;
    caps.handlesTasks = false;
    caps.cdpL3 = cdpL3;
    caps.cdpL2 = cdpL2;
    unsigned minClos = UINT32_MAX;
    auto addCache = [&](const std::string& base, bool present, unsigned len, std::uint64_t shareable, bool sparse,
                        unsigned maxClos, bool cdp, bool l2) {
        if (!present) return;
        const unsigned clos = cdp ? (maxClos >> 1) + 1 : maxClos + 1; // 20.19.5: CLOS_MAX_CDP = CAT_MAX_CLOS >> 1
        minClos = std::min(minClos, clos);
        for (const std::string& suffix :
            cdp ? std::vector<std::string> { "CODE", "DATA" } : std::vector<std::string> { "" }) {
            ResourceCaps r;
            r.name = base + suffix;
            r.kind = ResourceKind::Cache;
            r.numClosids = clos;
            r.cbmMask = fullMask(len);
            r.cbmBits = len;
            r.minCbmBits = 1;
            r.shareableBits = shareable;
            r.sparseMasks = sparse;
            r.bytesPerBit = l2 ? 0 : enumeration.l3BytesPerBit;
            r.domains = topology.domainsOf(l2 ? enumeration.l2IdOfCpu : enumeration.l3IdOfCpu);
            caps.resources.push_back(std::move(r));
        }
    };
    addCache("L3", enumeration.l3Cat, enumeration.l3CbmLength, enumeration.l3Shareable, enumeration.l3Sparse,
        enumeration.l3MaxClos, cdpL3, false);
    addCache("L2", enumeration.l2Cat, enumeration.l2CbmLength, enumeration.l2Shareable, enumeration.l2Sparse,
        enumeration.l2MaxClos, cdpL2, true);
    if (enumeration.mba) {
        ResourceCaps r;
        r.name = "MB";
        r.kind = ResourceKind::Bandwidth;
        r.numClosids = enumeration.mbaMaxClos + 1;
        r.setIntelMbaBounds(enumeration.mbaMaxDelay, enumeration.mbaLinear);
        r.throttleMode = "max";
        r.domains = topology.domainsOf(enumeration.l3IdOfCpu);
        minClos = std::min(minClos, r.numClosids);
        caps.resources.push_back(std::move(r));
    }
    if (enumeration.cba) {
        ResourceCaps r;
        r.name = "CBA"; // not a resctrl resource: values are throttle levels 0..max (20.19.8.3)
        r.kind = ResourceKind::Bandwidth;
        r.numClosids = enumeration.cbaMaxClos + 1;
        r.minBandwidth = 0;
        r.bandwidthGran = 1;
        r.maxBandwidth = enumeration.cbaMaxLevel;
        r.bandwidthUnit = BandwidthUnit::ThrottleLevel;
        r.domains = topology.domainsOf(enumeration.l3IdOfCpu);
        caps.resources.push_back(std::move(r));
    }
    caps.maxControlGroups = minClos == UINT32_MAX ? 1 : minClos;
    auto& m = caps.monitoring;
    m.present = enumeration.maxRmid > 0 && (enumeration.llcOccupancy || enumeration.mbmTotal || enumeration.mbmLocal);
    m.numRmids = enumeration.maxRmid + 1;
    m.llcOccupancy = enumeration.llcOccupancy;
    m.mbmTotal = enumeration.mbmTotal;
    m.mbmLocal = enumeration.mbmLocal;
    if (m.llcOccupancy) m.features.push_back("llc_occupancy");
    if (m.mbmTotal) m.features.push_back("mbm_total_bytes");
    if (m.mbmLocal) m.features.push_back("mbm_local_bytes");
    m.domains = topology.domainsOf(enumeration.l3IdOfCpu);
    m.counterWidth = enumeration.mbmWidth;
    m.overflowBit = enumeration.overflowBit;
    // The kernel's reuse threshold: L3 size / number of RMIDs (resctrl_rmid_realloc_threshold).
    const auto l3Bytes = enumeration.l3BytesPerBit * enumeration.l3CbmLength;
    m.maxThresholdOccupancy = l3Bytes / (enumeration.maxRmid + 1);
    return caps;
}

} // namespace rdt

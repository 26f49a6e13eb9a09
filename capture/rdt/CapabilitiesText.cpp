// SPDX-License-Identifier: GPL-3.0-or-later
#include "CapabilitiesText.h"

namespace rdt {

std::string formatCapabilitiesText(const Capabilities& caps)
{
    std::string t;
    for (const auto& r : caps.resources) {
        t += r.name + ": " + std::to_string(r.numClosids) + " CLOS, domains";
        for (int d : r.domains)
            t += " " + std::to_string(d);
        if (r.isCache())
            t += ", cbm_mask " + std::to_string(r.cbmBits) + " bits, min_cbm_bits " + std::to_string(r.minCbmBits);
        else
            t += ", min_bandwidth " + std::to_string(r.minBandwidth) + ", bandwidth_gran "
                + std::to_string(r.bandwidthGran);
        t += "\n";
    }
    const auto& m = caps.monitoring;
    if (m.present) {
        t += "L3_MON: " + std::to_string(m.numRmids) + " RMIDs, counter width " + std::to_string(m.counterWidth)
            + ", domains";
        for (int d : m.domains)
            t += " " + std::to_string(d);
        t += "\n";
    }
    return t;
}

} // namespace rdt

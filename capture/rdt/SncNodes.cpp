// SPDX-License-Identifier: GPL-3.0-or-later
#include "Sample.h"

#include <map>
#include <tuple>

namespace rdt {

// Kernel Documentation/filesystems/resctrl.rst, "Intel Sub-NUMA Clustering": with SNC each mon_L3_XX directory
// holds one mon_sub_L3_YY per node, and mon_L3_XX's own files read the sum of its nodes. Summing the sampler's
// wrap-corrected node rows gives the same L3 row without a second read of the hardware.
void splitSncNodes(RdtSampleBatch& batch)
{
    std::vector<RdtSample> whole;
    std::vector<RdtSample> nodes;
    std::map<std::tuple<std::string, int>, std::size_t> at; // (group, L3) -> index in `whole`
    for (auto& s : batch.samples) {
        if (s.node < 0) {
            whole.push_back(std::move(s));
            continue;
        }
        auto [it, fresh] = at.try_emplace(std::make_tuple(s.group, s.domain), whole.size());
        if (fresh) {
            RdtSample sum;
            sum.timeNs = s.timeNs;
            sum.group = s.group;
            sum.domain = s.domain;
            whole.push_back(std::move(sum));
        }
        RdtSample& sum = whole[it->second];
        sum.occupancyBytes += s.occupancyBytes;
        sum.mbmTotalBytes += s.mbmTotalBytes;
        sum.mbmLocalBytes += s.mbmLocalBytes;
        sum.mbmTotalBps += s.mbmTotalBps;
        sum.mbmLocalBps += s.mbmLocalBps;
        sum.flags |= s.flags;
        nodes.push_back(std::move(s));
    }
    batch.samples = std::move(whole);
    batch.nodeSamples = std::move(nodes);
}

} // namespace rdt

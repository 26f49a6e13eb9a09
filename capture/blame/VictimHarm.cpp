// SPDX-License-Identifier: GPL-3.0-or-later
#include "VictimHarm.h"

#include "Windows.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <set>

namespace rdt::blame {

namespace {

std::string mib(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
    return buf;
}

} // namespace

VictimHarm victimHarmOf(const Observation& o)
{
    VictimHarm h;
    h.group = o.victim;
    std::set<int> domains;
    for (const auto& p : o.polls)
        for (const auto& [key, r] : p.readings)
            if (key.first == o.victim) domains.insert(key.second);
    bool occupancyUnknown = false;
    for (const int d : domains) {
        const auto s = spanOf(o.polls, { o.victim, d }, 0, o.passiveEnd);
        if (!s) {
            occupancyUnknown = true;
            continue;
        }
        if (s->occupancyBytes <= 0 && s->fillBps <= 0) continue; // nothing of the victim there
        DomainHarm dh;
        dh.domain = d;
        dh.occupancyBytes = s->occupancyBytes;
        dh.missBps = s->fillBps;
        const auto mask = o.masks.find({ o.victim, d });
        if (o.bytesPerWay && mask != o.masks.end())
            dh.capacityBytes = static_cast<double>(std::popcount(mask->second)) * static_cast<double>(o.bytesPerWay);
        char buf[256];
        std::snprintf(buf, sizeof buf, "on L3 domain %d %s holds %s%s%s and reads %.0f MB/s from memory", d,
            displayGroup(o.victim).c_str(), mib(dh.occupancyBytes).c_str(), dh.capacityBytes ? " of the " : "",
            dh.capacityBytes ? (mib(*dh.capacityBytes) + " its mask allows").c_str() : "", dh.missBps / 1e6);
        dh.text = buf;
        h.domains.push_back(dh);
    }
    std::sort(h.domains.begin(), h.domains.end(),
        [](const DomainHarm& a, const DomainHarm& b) { return a.occupancyBytes > b.occupancyBytes; });
    if (occupancyUnknown)
        h.missing.push_back("some occupancy or MBM readings of " + displayGroup(o.victim)
            + " were unknown (Error/Unavailable, or MBM not offered): those domains are left out");
    if (!o.cat)
        h.missing.push_back("no L3 CAT: every group may fill every way, overlaps are taken as whole");
    else if (!o.bytesPerWay)
        h.missing.push_back("the way size is unknown (CPUID does not describe this cache): lost occupancy is not "
                            "measured against a capacity");
    if (const auto pmu = pmuSpanOf(o.polls, 0, o.passiveEnd)) {
        h.ipc = pmu->ipc;
        h.mpki = pmu->mpki;
        h.memoryBound = pmu->memoryBound;
        h.pmu = o.pmuMethod;
        if (!pmu->memoryBound) h.missing.push_back("the memory-bound share is not counted here (" + o.pmuMethod + ")");
    } else {
        h.pmu = o.pmuUnavailable.empty() ? "the engine counted no cycles of " + displayGroup(o.victim)
                + "'s tasks (a source that associates CPUs, not tasks, has none to count)"
                                         : o.pmuUnavailable;
        h.missing.push_back("no IPC, MPKI or memory-bound share: " + h.pmu);
    }
    if (h.domains.empty())
        h.missing.push_back(displayGroup(o.victim) + " has no occupancy or memory traffic on any L3 domain");
    return h;
}

} // namespace rdt::blame

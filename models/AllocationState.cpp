// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationState.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

namespace {
bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

unsigned clampValue(const BandwidthSchema& b, unsigned v)
{
    return std::clamp(v, b.minValue, std::max(b.minValue, b.maxValue));
}
} // namespace

std::string CacheSchema::cacheName() const
{
    for (const char* t : { "CODE", "DATA" }) {
        if (endsWith(name, t)) return name.substr(0, name.size() - 4);
    }
    return name;
}

std::string CacheSchema::cdpType() const
{
    for (const char* t : { "CODE", "DATA" }) {
        if (endsWith(name, t)) return t;
    }
    return {};
}

rdt::ResourceCaps CacheSchema::rules(const std::vector<int>& domains) const
{
    rdt::ResourceCaps r;
    r.name = name;
    r.kind = rdt::ResourceKind::Cache;
    r.domains = domains;
    r.cbmMask = fullMask();
    r.cbmBits = static_cast<unsigned>(std::max(0, cbmLength));
    r.minCbmBits = static_cast<unsigned>(std::max(0, minCbmBits));
    r.shareableBits = shareableBits;
    r.sparseMasks = sparseMasks;
    r.bytesPerBit = bytesPerBit();
    return r;
}

unsigned BandwidthSchema::effectiveValue(unsigned requested) const
{
    const unsigned v = clampValue(*this, requested);
    if (scale == Scale::PowerOfTwo) {
        // SDM 20.19.7.2: a non-linear delay that is not a power of two is rounded down to the next power of two.
        if (v == 0) return 0;
        const unsigned p = std::bit_floor(v);
        return p < minValue ? minValue : p;
    }
    if (granularity <= 1) return v;
    unsigned r
        = rounding == Rounding::Up ? (v + granularity - 1) / granularity * granularity : v / granularity * granularity;
    // Kernel bw_validate rounds up after the range check, so 95 with gran 10 is written as 100; never exceed max.
    if (r > maxValue) r = maxValue / granularity * granularity;
    if (r < minValue) r = minValue;
    return r;
}

unsigned BandwidthSchema::stepUp(unsigned value) const
{
    const unsigned cur = effectiveValue(value);
    if (scale == Scale::PowerOfTwo) return effectiveValue(cur == 0 ? 1 : cur * 2);
    const unsigned next = effectiveValue(cur + std::max(1u, granularity));
    return next;
}

unsigned BandwidthSchema::stepDown(unsigned value) const
{
    const unsigned cur = effectiveValue(value);
    if (scale == Scale::PowerOfTwo) return effectiveValue(cur <= 1 ? 0 : cur / 2);
    const unsigned g = std::max(1u, granularity);
    if (cur <= minValue + g - 1) return minValue;
    // Round down explicitly: effectiveValue would round a non-multiple back up.
    unsigned down = (cur - g) / g * g;
    return std::max(down, minValue);
}

const CacheSchema* AllocationState::cacheSchema(const std::string& name) const
{
    for (const auto& c : caches) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

const BandwidthSchema* AllocationState::bandwidthSchema(const std::string& name) const
{
    for (const auto& b : bandwidths) {
        if (b.name == name) return &b;
    }
    return nullptr;
}

std::vector<std::string> AllocationState::cacheNames() const
{
    std::vector<std::string> names;
    for (const auto& c : caches) {
        const std::string n = c.cacheName();
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
    return names;
}

int replayAllocation(AllocationState& state, const std::vector<rdt::AllocationChanged>& changes, std::uint64_t untilNs)
{
    int applied = 0;
    for (const auto& c : changes) {
        if (c.timeNs > untilNs) break;
        if (!c.ok) continue;
        const bool cache = state.cacheSchema(c.resource) != nullptr;
        if (!cache && !state.bandwidthSchema(c.resource)) continue;
        char* end = nullptr;
        const unsigned long long v = std::strtoull(c.newValue.c_str(), &end, cache ? 16 : 10);
        if (end == c.newValue.c_str()) continue;
        for (auto& g : state.groups) {
            if (g.group != c.group) continue;
            if (cache)
                g.cbm[c.resource][c.domain] = v;
            else
                g.bandwidth[c.resource][c.domain] = static_cast<unsigned>(v);
            ++applied;
        }
    }
    return applied;
}

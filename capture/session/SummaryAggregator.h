// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/Sample.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace rdt::session {

/// Running min/max/mean of one series over one bucket.
struct Stat {
    std::uint64_t n = 0;
    double min = 0, max = 0, sum = 0;
    void add(double v)
    {
        if (n == 0 || v < min)
            min = v;
        if (n == 0 || v > max)
            max = v;
        sum += v;
        ++n;
    }
    double mean() const { return n ? sum / static_cast<double>(n) : 0.0; }
};

struct BucketStats {
    Stat occupancy, total, local;
};

/// Key of one summary bucket: (resolution in s, bucket index, group id, domain).
using BucketKey = std::tuple<int, std::uint64_t, std::int64_t, int>;

/// Builds the multi-resolution summary (1 s and 60 s buckets) while recording, so a long session opens at once
/// without scanning its raw rows. Buckets are handed out once they are complete (or all at the end).
class SummaryAggregator {
public:
    static constexpr int kResolutions[] = { 1, 60 };

    void add(const RdtSample& s, std::int64_t groupId);
    /// Removes and returns the buckets that ended at or before `timeNs` (no later sample can fall into them,
    /// since samples arrive in time order).
    std::vector<std::pair<BucketKey, BucketStats>> takeComplete(std::uint64_t timeNs);
    /// Removes and returns every bucket (at close).
    std::vector<std::pair<BucketKey, BucketStats>> takeAll();
    /// Puts buckets back after a failed write so nothing is lost from the summary on a retry.
    void restore(const std::vector<std::pair<BucketKey, BucketStats>>& buckets);
    bool empty() const { return m_buckets.empty(); }

private:
    std::map<BucketKey, BucketStats> m_buckets;
};

} // namespace rdt::session

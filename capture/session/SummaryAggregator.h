// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/PercentileSketch.h"
#include "rdt/Sample.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace rdt::session {

/// Running min/max/mean of one series over one bucket.
struct Stat {
    std::uint64_t n = 0;
    double min = 0, max = 0, sum = 0;
    void add(double v)
    {
        if (n == 0 || v < min) min = v;
        if (n == 0 || v > max) max = v;
        sum += v;
        ++n;
    }
    double mean() const { return n ? sum / static_cast<double>(n) : 0.0; }
};

/// One bucket's figures: each Stat over the series' valid values only (Sample.h's rules, as SeriesSketch).
struct BucketStats {
    std::uint64_t rows = 0; ///< every row of the bucket, flagged or not (rdt_summary.count)
    Stat occupancy, total, local;
    std::string sketch; ///< kSketchLevel buckets: SeriesSketch::encode() of the bucket (rdt_summary.sketch)
};

/// Key of one summary bucket: (resolution in s, bucket index, group id, domain).
using BucketKey = std::tuple<int, std::uint64_t, std::int64_t, int>;
using Bucket = std::pair<BucketKey, BucketStats>;

/// One series' valid values over one kSketchResolution bucket, as the comparison reads them (issue #20): flagged
/// readings left out as compare/SessionProfile.cpp leaves them out, so a diff can merge minutes instead of reading
/// every row (docs/SESSION-FORMAT.md "Minute sketches").
struct SeriesSketch {
    std::uint64_t rows = 0; ///< every row of the bucket, flagged or not
    std::uint64_t flagged = 0;
    PercentileSketch occupancy = PercentileSketch::bucketed();
    PercentileSketch total = PercentileSketch::bucketed();
    PercentileSketch local = PercentileSketch::bucketed();
    void add(const RdtSample& s);
    /// The `rdt_summary.sketch` blob (docs/SESSION-FORMAT.md): varints rows and flagged, then the three sketches,
    /// each as a varint length and PercentileSketch::encode() bytes.
    std::string encode() const;
    static Result<SeriesSketch> decode(std::string_view bytes);
};

/// Builds the multi-resolution summary (1 s and 60 s buckets) while recording, so a long session opens at once
/// without scanning its raw rows. Each series (group, domain) keeps one open bucket per resolution (O(1) per
/// sample, no tree look-ups on the recorder's hot path); a bucket is handed out once it is complete.
class SummaryAggregator {
public:
    static constexpr std::array<int, 2> kResolutions = { 1, 60 };
    /// The resolution whose buckets also carry a SeriesSketch (index into kResolutions).
    static constexpr std::size_t kSketchLevel = 1;
    static constexpr int kSketchResolution = kResolutions[kSketchLevel];

    void add(const RdtSample& s, std::int64_t groupId);
    /// Removes and returns the buckets that ended at or before `timeNs`.
    std::vector<Bucket> takeComplete(std::uint64_t timeNs);
    /// Removes and returns every bucket (at close).
    std::vector<Bucket> takeAll();

    bool empty() const { return m_open.empty() && m_done.empty(); }

private:
    struct Open {
        std::int64_t groupId = 0;
        int domain = 0;
        std::array<std::uint64_t, kResolutions.size()> bucket {};
        std::array<BucketStats, kResolutions.size()> stats {};
        SeriesSketch sketch;
        bool any = false;
    };
    void close(Open& o, std::size_t level);

    std::unordered_map<std::uint64_t, Open> m_open; ///< key: group id << 16 | domain
    std::vector<Bucket> m_done;
};

} // namespace rdt::session

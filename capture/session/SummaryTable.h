// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionFile.h"
#include "SessionTypes.h"
#include "SummaryAggregator.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rdt::session {

/// One series' minute sketch (`rdt_summary.sketch`, docs/SESSION-FORMAT.md): the valid values of group x domain in
/// [bucket * 60 s, (bucket + 1) * 60 s) as bucketed percentile sketches, and how many rows it summarizes.
struct SketchRow {
    std::uint64_t bucket = 0;
    std::string group;
    int domain = 0;
    SeriesSketch sketch; ///< rows, flagged rows and the three sketches
};

/// The session's multi-resolution summary (table `rdt_summary`): 1 s and 60 s buckets, and the minute sketches a
/// comparison merges instead of reading every row (issue #20). Files written before the sketch column existed
/// have none and are read row by row.
class SummaryTable {
public:
    explicit SummaryTable(SessionFile& file);
    Result<std::vector<SummaryBucket>> summary(int resolutionS, std::uint64_t fromNs, std::uint64_t toNs);
    std::optional<std::uint64_t> sketchEnd();
    Status forEachSketch(
        std::uint64_t fromBucket, std::uint64_t toBucket, const std::function<bool(const SketchRow&)>& fn);

private:
    SessionFile& m_file;
};

} // namespace rdt::session

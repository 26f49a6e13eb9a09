// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionFile.h"
#include "SessionTypes.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rdt::session {

/// The session's PMU batches (table `pmu_batches`): zstd-compressed records of one kind each, decompressed with
/// their size bounded by what the row declares; a damaged batch is skipped with an issue.
class PmuBatchTable {
public:
    explicit PmuBatchTable(SessionFile& file);
    Result<std::vector<PmuBatch>> pmuBatches(const std::string& kind, std::uint64_t fromNs, std::uint64_t toNs);
    Status forEachPmuBatch(const std::string& kind, const std::function<bool(PmuBatch&&)>& fn);
    std::optional<std::pair<std::uint64_t, std::uint64_t>> pmuBatchTimeRange(const std::string& kind);

private:
    /// Steps a pmu_batches query (columns id, kind, start_ns, end_ns, count, codec, raw_size, data) and hands
    /// each readable batch to `fn`; the shared part of pmuBatches() and forEachPmuBatch().
    void stepPmuBatches(Statement& st, const std::function<bool(PmuBatch&&)>& fn);

    SessionFile& m_file;
};

} // namespace rdt::session

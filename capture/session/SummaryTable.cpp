// SPDX-License-Identifier: GPL-3.0-or-later
// The summary of a session (table `rdt_summary` with its minute sketches, docs/SESSION-FORMAT.md).
#include "SummaryTable.h"

#include <string_view>

namespace rdt::session {

SummaryTable::SummaryTable(SessionFile& file)
    : m_file(file)
{ }

Result<std::vector<SummaryBucket>> SummaryTable::summary(int resolutionS, std::uint64_t fromNs, std::uint64_t toNs)
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(),
        "SELECT bucket, group_id, domain, count, occ_min, occ_max, occ_mean, total_bps_min, total_bps_max, "
        "total_bps_mean, local_bps_min, local_bps_max, local_bps_mean FROM rdt_summary "
        "WHERE resolution_s = ? AND bucket >= ? AND bucket <= ? ORDER BY bucket, group_id, domain");
    if (!st) return m_file.noteFailure(st.error(), "the summary is unreadable");
    constexpr std::uint64_t kNsPerS = 1000000000;
    const std::uint64_t res = static_cast<std::uint64_t>(resolutionS > 0 ? resolutionS : 1) * kNsPerS;
    st->bind(1, resolutionS).bind(2, SessionFile::clampNs(fromNs / res)).bind(3, SessionFile::clampNs(toNs / res));
    std::vector<SummaryBucket> out;
    for (;;) {
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "the summary is partly unreadable");
            break;
        }
        if (!*row) break;
        SummaryBucket b;
        b.resolutionS = resolutionS;
        b.bucket = st->u64(0);
        const std::int64_t groupId = st->i64(1);
        b.domain = st->i32(2);
        b.count = st->u64(3);
        // NULL: no valid sample in the bucket, unknown (NaN), never 0; text or blobs are damage.
        const auto figure = [&](int col) { return st->isNull(col) ? kUnknownFigure : st->f64(col); };
        b.occMin = figure(4);
        b.occMax = figure(5);
        b.occMean = figure(6);
        b.totalMin = figure(7);
        b.totalMax = figure(8);
        b.totalMean = figure(9);
        b.localMin = figure(10);
        b.localMax = figure(11);
        b.localMean = figure(12);
        if (m_file.damagedRow(*st, "rdt_summary row (bucket " + st->text(0) + ", group_id " + st->text(1) + ")"))
            continue;
        b.group = m_file.groupPath(groupId);
        out.push_back(std::move(b));
    }
    return out;
}

std::optional<std::uint64_t> SummaryTable::sketchEnd()
{
    // An older file's rdt_summary has no `sketch` column: the statement does not prepare, and there are none.
    auto st = Statement::prepare(
        m_file.db(), "SELECT MAX(bucket) FROM rdt_summary WHERE resolution_s = ? AND sketch IS NOT NULL");
    if (!st) return std::nullopt;
    st->bind(1, SummaryAggregator::kSketchResolution);
    auto row = st->step();
    if (!row || !*row || st->isNull(0)) return std::nullopt;
    return st->u64(0) + 1;
}

Status SummaryTable::forEachSketch(
    std::uint64_t fromBucket, std::uint64_t toBucket, const std::function<bool(const SketchRow&)>& fn)
{
    auto st = Statement::prepare(m_file.db(),
        "SELECT bucket, group_id, domain, sketch FROM rdt_summary WHERE resolution_s = ? AND bucket >= ? AND "
        "bucket < ? AND sketch IS NOT NULL ORDER BY bucket, group_id, domain");
    if (!st) return st.error();
    st->bind(1, SummaryAggregator::kSketchResolution).bind(2, fromBucket).bind(3, toBucket);
    SketchRow r;
    for (;;) {
        auto row = st->step();
        if (!row) return row.error();
        if (!*row) return {};
        r.bucket = st->u64(0);
        const std::int64_t groupId = st->i64(1);
        r.domain = st->i32(2);
        if (m_file.damagedRow(*st, "rdt_summary sketch row (bucket " + st->text(0) + ", group_id " + st->text(1) + ")"))
            continue;
        r.group = m_file.groupPath(groupId);
        const auto bytes = st->blob(3);
        auto sketch = SeriesSketch::decode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        if (!sketch) return makeError(m_file.path() + ": " + sketch.error().message);
        r.sketch = std::move(*sketch);
        if (!fn(r)) return {};
    }
}

} // namespace rdt::session

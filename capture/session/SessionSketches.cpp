// SPDX-License-Identifier: GPL-3.0-or-later
// The minute sketches of a session (column `rdt_summary.sketch`, docs/SESSION-FORMAT.md): what lets a comparison of two
// one-hour sessions merge 60 sketches per series instead of reading 36,000 rows (issue #20). Read on demand; files
// written before the column existed do not have it and are read row by row.
#include "SessionReader.h"
#include "SummaryAggregator.h"

#include <string_view>

namespace rdt::session {

std::optional<std::uint64_t> SessionReader::sketchEnd()
{
    // An older file's rdt_summary has no `sketch` column: the statement does not prepare, and there are none.
    auto st
        = Statement::prepare(m_db, "SELECT MAX(bucket) FROM rdt_summary WHERE resolution_s = ? AND sketch IS NOT NULL");
    if (!st) return std::nullopt;
    st->bind(1, SummaryAggregator::kSketchResolution);
    auto row = st->step();
    if (!row || !*row || st->isNull(0)) return std::nullopt;
    return st->u64(0) + 1;
}

Status SessionReader::forEachSketch(
    std::uint64_t fromBucket, std::uint64_t toBucket, const std::function<bool(const SketchRow&)>& fn)
{
    auto st = Statement::prepare(m_db,
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
        if (damagedRow(*st, "rdt_summary sketch row (bucket " + st->text(0) + ", group_id " + st->text(1) + ")"))
            continue;
        r.group = groupPath(groupId);
        const auto bytes = st->blob(3);
        auto sketch = SeriesSketch::decode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        if (!sketch) return makeError(m_path + ": " + sketch.error().message);
        r.sketch = std::move(*sketch);
        if (!fn(r)) return {};
    }
}

} // namespace rdt::session

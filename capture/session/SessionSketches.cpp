// SPDX-License-Identifier: GPL-3.0-or-later
// The minute sketches of a session (table `rdt_sketch`, docs/SESSION-FORMAT.md): what lets a comparison of two
// one-hour sessions merge 60 sketches per series instead of reading 36,000 rows (issue #20). Read on demand; files
// written before the table existed do not have it and are read row by row.
#include "SessionReader.h"

#include <algorithm>
#include <string_view>

namespace rdt::session {

std::optional<std::uint64_t> SessionReader::sketchEnd()
{
    if (std::find(m_tables.begin(), m_tables.end(), "rdt_sketch") == m_tables.end()) return std::nullopt;
    auto st = Statement::prepare(m_db, "SELECT MAX(bucket) FROM rdt_sketch");
    if (!st) return std::nullopt;
    auto row = st->step();
    if (!row || !*row || st->isNull(0)) return std::nullopt;
    return st->u64(0) + 1;
}

Status SessionReader::forEachSketch(
    std::uint64_t fromBucket, std::uint64_t toBucket, const std::function<bool(const SketchRow&)>& fn)
{
    auto st = Statement::prepare(m_db,
        "SELECT bucket, group_id, domain, rows, flagged, occupancy, total_bps, local_bps FROM rdt_sketch "
        "WHERE bucket >= ? AND bucket < ? ORDER BY bucket, group_id, domain");
    if (!st) return st.error();
    st->bind(1, fromBucket).bind(2, toBucket);
    SketchRow r;
    for (;;) {
        auto row = st->step();
        if (!row) return row.error();
        if (!*row) return {};
        r.bucket = st->u64(0);
        r.group = groupPath(st->i64(1));
        r.domain = st->i32(2);
        r.rows = st->u64(3);
        r.flagged = st->u64(4);
        PercentileSketch* into[3] = { &r.occupancy, &r.total, &r.local };
        for (int i = 0; i < 3; ++i) {
            const auto bytes = st->blob(5 + i);
            auto sketch
                = PercentileSketch::decode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
            if (!sketch) return makeError(m_path + ": " + sketch.error().message);
            *into[i] = std::move(*sketch);
        }
        if (!fn(r)) return {};
    }
}

} // namespace rdt::session

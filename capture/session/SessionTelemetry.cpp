// SPDX-License-Identifier: GPL-3.0-or-later
// The PERF_PKG_MON telemetry of a session (table `telemetry_samples`, docs/SESSION-FORMAT.md): read on demand and
// optional, like `sweep_steps`, because files written before the table existed do not have it and are not damaged.
#include "SessionReader.h"

#include <algorithm>

namespace rdt::session {

Result<std::vector<TelemetrySample>> SessionReader::telemetry(std::uint64_t fromNs, std::uint64_t toNs)
{
    std::vector<TelemetrySample> out;
    if (std::find(m_tables.begin(), m_tables.end(), "telemetry_samples") == m_tables.end()) return out;
    resetBudget();
    auto st = Statement::prepare(m_db,
        "SELECT time_ns, group_id, package, event, value, per_second, flags FROM telemetry_samples "
        "WHERE time_ns >= ? AND time_ns < ? ORDER BY time_ns, group_id, package, event");
    if (!st) return noteFailure(st.error(), "telemetry samples are unreadable");
    st->bind(1, clampNs(fromNs)).bind(2, clampNs(toNs));
    for (;;) {
        auto row = st->step();
        if (!row) {
            noteFailure(row.error(), "telemetry samples are partly unreadable");
            break;
        }
        if (!*row) break;
        TelemetrySample t;
        t.timeNs = st->u64(0);
        const std::int64_t groupId = st->i64(1);
        t.package = st->i32(2);
        t.event = st->text(3);
        t.value = st->f64(4);
        t.perSecond = st->isNull(5) ? 0.0 : st->f64(5);
        t.flags = st->u32(6);
        if (damagedRow(*st, "telemetry_samples row at time_ns " + st->text(0))) continue;
        t.group = groupPath(groupId);
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace rdt::session

// SPDX-License-Identifier: GPL-3.0-or-later
// The telemetry of a session (table `telemetry_samples`, docs/SESSION-FORMAT.md).
#include "TelemetryTable.h"

namespace rdt::session {

TelemetryTable::TelemetryTable(SessionFile& file)
    : m_file(file)
{ }

Result<std::vector<TelemetrySample>> TelemetryTable::telemetry(std::uint64_t fromNs, std::uint64_t toNs)
{
    std::vector<TelemetrySample> out;
    if (!m_file.hasTable("telemetry_samples")) return out;
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(),
        "SELECT time_ns, group_id, package, event, value, per_second, flags FROM telemetry_samples "
        "WHERE time_ns >= ? AND time_ns < ? ORDER BY time_ns, group_id, package, event");
    if (!st) return m_file.noteFailure(st.error(), "telemetry samples are unreadable");
    st->bind(1, SessionFile::clampNs(fromNs)).bind(2, SessionFile::clampNs(toNs));
    for (;;) {
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "telemetry samples are partly unreadable");
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
        if (m_file.damagedRow(*st, "telemetry_samples row at time_ns " + st->text(0))) continue;
        t.group = m_file.groupPath(groupId);
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace rdt::session

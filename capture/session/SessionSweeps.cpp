// SPDX-License-Identifier: GPL-3.0-or-later
// The sweeps of a session (table `sweep_steps`, docs/SESSION-FORMAT.md): read on demand, not at open, because
// files written before the table existed do not have it and are not damaged for that.
#include "SessionReader.h"

#include <algorithm>

namespace rdt::session {

Result<std::vector<SweepStepRow>> SessionReader::sweepSteps()
{
    std::vector<SweepStepRow> out;
    if (std::find(m_tables.begin(), m_tables.end(), "sweep_steps") == m_tables.end()) return out;
    auto st = Statement::prepare(m_db,
        "SELECT sweep, step, kind, group_path, value, written, start_ns, end_ns, occupancy_bytes, total_bps, "
        "local_bps, victim, victim_occupancy_bytes, victim_total_bps, disturbed FROM sweep_steps ORDER BY sweep, step");
    if (!st) return st.error();
    for (;;) {
        auto row = st->step();
        if (!row) return row.error();
        if (!*row) break;
        SweepStepRow r;
        r.sweep = static_cast<std::uint32_t>(st->u64(0));
        r.step = static_cast<std::uint32_t>(st->u64(1));
        r.kind = st->text(2);
        r.group = st->text(3);
        r.value = st->u64(4);
        r.written = st->text(5);
        r.startNs = st->u64(6);
        r.endNs = st->u64(7);
        r.occupancyBytes = st->f64(8);
        r.totalBps = st->f64(9);
        r.localBps = st->f64(10);
        r.victim = st->text(11);
        r.victimOccupancyBytes = st->f64(12);
        r.victimTotalBps = st->f64(13);
        r.disturbed = st->text(14);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace rdt::session

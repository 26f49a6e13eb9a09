// SPDX-License-Identifier: GPL-3.0-or-later
// The sweeps of a session (table `sweep_steps`, docs/SESSION-FORMAT.md).
#include "SweepTable.h"

namespace rdt::session {

SweepTable::SweepTable(SessionFile& file)
    : m_file(file)
{ }

Result<std::vector<SweepStepRow>> SweepTable::sweepSteps()
{
    std::vector<SweepStepRow> out;
    const auto has = [&](const char* table) { return m_file.hasTable(table); };
    if (!has("sweep_steps")) return out;
    // Files written before `sweep_pmu` existed have no PMU figures: the same columns read as NULL.
    const std::string pmu = has("sweep_pmu")
        ? "p.ipc, p.mpki, p.memory_bound, p.source FROM sweep_steps s LEFT JOIN sweep_pmu p USING (sweep, step)"
        : "NULL, NULL, NULL, NULL FROM sweep_steps s";
    auto st = Statement::prepare(m_file.db(),
        "SELECT s.sweep, s.step, kind, group_path, value, written, start_ns, end_ns, occupancy_bytes, total_bps, "
        "local_bps, victim, victim_occupancy_bytes, victim_total_bps, disturbed, "
            + pmu + " ORDER BY s.sweep, s.step");
    if (!st) return st.error();
    for (;;) {
        auto row = st->step();
        if (!row) return row.error();
        if (!*row) break;
        // A NULL figure was not measured (a NaN written by the sweep is stored as NULL): unknown, never 0; text,
        // blobs and out-of-range values are damage.
        const auto figure = [&](int col) { return st->isNull(col) ? kUnknownFigure : st->f64(col); };
        SweepStepRow r;
        r.sweep = st->u32(0);
        r.step = st->u32(1);
        r.kind = st->text(2);
        r.group = st->text(3);
        r.value = st->u64(4);
        r.written = st->text(5);
        r.startNs = st->u64(6);
        r.endNs = st->u64(7);
        r.occupancyBytes = figure(8);
        r.totalBps = figure(9);
        r.localBps = figure(10);
        r.victim = st->text(11);
        r.victimOccupancyBytes = figure(12);
        r.victimTotalBps = figure(13);
        r.disturbed = st->text(14);
        if (!st->isNull(15)) r.ipc = st->f64(15);
        if (!st->isNull(16)) r.mpki = st->f64(16);
        if (!st->isNull(17)) r.memoryBound = st->f64(17);
        if (!st->isNull(18)) r.pmuSource = st->text(18);
        if (m_file.damagedRow(*st, "sweep_steps row (sweep " + st->text(0) + ", step " + st->text(1) + ")")) continue;
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace rdt::session

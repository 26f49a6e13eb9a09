// SPDX-License-Identifier: GPL-3.0-or-later
// The TMA intervals of a session (table `tma_intervals`, docs/SESSION-FORMAT.md).
#include "TmaTable.h"

namespace rdt::session {

TmaTable::TmaTable(SessionFile& file)
    : m_file(file)
{ }

Result<std::vector<TmaInterval>> TmaTable::tma(std::uint64_t fromNs, std::uint64_t toNs)
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(),
        "SELECT start_ns, end_ns, scope, level, metric, value FROM tma_intervals WHERE start_ns >= ? AND start_ns < ? "
        "ORDER BY start_ns, rowid");
    if (!st) return m_file.noteFailure(st.error(), "TMA intervals are unreadable");
    st->bind(1, SessionFile::clampNs(fromNs)).bind(2, SessionFile::clampNs(toNs));
    std::vector<TmaInterval> out;
    for (;;) {
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "TMA intervals are partly unreadable");
            break;
        }
        if (!*row) break;
        TmaInterval t { st->u64(0), st->u64(1), st->text(2), st->i32(3), st->text(4), st->f64(5) };
        if (m_file.damagedRow(*st, "tma_intervals row at start_ns " + st->text(0))) continue;
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace rdt::session

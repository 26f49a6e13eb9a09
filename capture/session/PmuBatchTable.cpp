// SPDX-License-Identifier: GPL-3.0-or-later
// The PMU batches of a session (table `pmu_batches`, docs/SESSION-FORMAT.md).
#include "PmuBatchTable.h"
#include "Compression.h"

namespace rdt::session {

PmuBatchTable::PmuBatchTable(SessionFile& file)
    : m_file(file)
{ }

std::optional<std::pair<std::uint64_t, std::uint64_t>> PmuBatchTable::pmuBatchTimeRange(const std::string& kind)
{
    m_file.resetBudget();
    auto q = Statement::prepare(m_file.db(),
        "SELECT min(start_ns), max(end_ns) FROM pmu_batches WHERE kind = ? AND start_ns > 0 AND end_ns > 0");
    if (!q) return std::nullopt;
    q->bind(1, kind);
    auto r = q->step();
    if (!r || !*r || q->isNull(0) || q->isNull(1)) return std::nullopt;
    return std::make_pair(q->u64(0), q->u64(1));
}

void PmuBatchTable::stepPmuBatches(Statement& st, const std::function<bool(PmuBatch&&)>& fn)
{
    for (;;) {
        auto row = st.step();
        if (!row) {
            m_file.noteFailure(row.error(), "PMU batches are partly unreadable");
            break;
        }
        if (!*row) break;
        const std::string id = st.text(0);
        if (st.text(5) != "zstd") {
            m_file.issue(
                "PMU batch " + id + " uses codec '" + st.text(5) + "', which this rdtscope cannot read: skipped");
            continue;
        }
        const std::uint64_t startNs = st.u64(2), endNs = st.u64(3), count = st.u64(4), rawSize = st.u64(6);
        if (m_file.damagedRow(st, "pmu_batches row id " + id)) continue;
        auto data = decompressZstd(st.blob(7), rawSize);
        if (!data) {
            m_file.markDamaged();
            m_file.issue("PMU batch " + id + ": " + data.error().message + "; skipped");
            continue;
        }
        if (!fn({ startNs, endNs, st.text(1), count, std::move(data.value()) })) break;
    }
}

Result<std::vector<PmuBatch>> PmuBatchTable::pmuBatches(
    const std::string& kind, std::uint64_t fromNs, std::uint64_t toNs)
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(),
        "SELECT id, kind, start_ns, end_ns, count, codec, raw_size, data FROM pmu_batches "
        "WHERE (?1 = '' OR kind = ?1) AND end_ns >= ?2 AND start_ns < ?3 ORDER BY start_ns, id");
    if (!st) return m_file.noteFailure(st.error(), "PMU batches are unreadable");
    st->bind(1, kind).bind(2, SessionFile::clampNs(fromNs)).bind(3, SessionFile::clampNs(toNs));
    std::vector<PmuBatch> out;
    stepPmuBatches(*st, [&out](PmuBatch&& b) {
        out.push_back(std::move(b));
        return true;
    });
    return out;
}

Status PmuBatchTable::forEachPmuBatch(const std::string& kind, const std::function<bool(PmuBatch&&)>& fn)
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(),
        "SELECT id, kind, start_ns, end_ns, count, codec, raw_size, data FROM pmu_batches WHERE kind = ?1 ORDER BY id");
    if (!st) return m_file.noteFailure(st.error(), "PMU batches are unreadable");
    st->bind(1, kind);
    stepPmuBatches(*st, fn);
    return {};
}

} // namespace rdt::session

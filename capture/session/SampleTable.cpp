// SPDX-License-Identifier: GPL-3.0-or-later
// The samples of a session (table `rdt_samples`, docs/SESSION-FORMAT.md).
#include "SampleTable.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace rdt::session {

SampleTable::SampleTable(SessionFile& file)
    : m_file(file)
{ }

void SampleTable::setRecorded(std::uint64_t firstNs, std::uint64_t lastNs, std::uint64_t count, bool closedCleanly,
    std::optional<std::uint64_t> startMonoNs, bool mbmFlagsPerCounter)
{
    m_firstNs = firstNs;
    m_lastNs = lastNs;
    m_sampleCount = count;
    m_closedCleanly = closedCleanly;
    m_startMonoNs = startMonoNs;
    m_mbmFlagsPerCounter = mbmFlagsPerCounter;
}

std::uint64_t SampleTable::originNs() const
{
    // Simulated sessions start at time 0, so the key's presence (not a non-zero value) decides.
    if (m_startMonoNs && (m_sampleCount == 0 || *m_startMonoNs <= m_firstNs)) return *m_startMonoNs;
    return m_firstNs;
}

void SampleTable::loadTimeRange()
{
    // The meta counters are written with each flush, but the rows are the truth: a damaged or edited counter
    // (last_time_ns = 9e18) would make replay wait for years. The table's primary key starts with time_ns, so its
    // range is two index look-ups; it wins when the two disagree.
    // Two statements, not `SELECT min(), max()`: SQLite answers a lone min() or max() of an indexed column from the
    // index, but both in one query scan the whole table (1.5 s for a one-hour session; SQLite's query optimizer
    // overview, "The MIN/MAX optimization").
    m_file.resetBudget();
    std::uint64_t ends[2] = { 0, 0 };
    for (int i = 0; i < 2; ++i) {
        auto st = Statement::prepare(
            m_file.db(), i == 0 ? "SELECT min(time_ns) FROM rdt_samples" : "SELECT max(time_ns) FROM rdt_samples");
        if (!st) return;
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "the sample time range cannot be read");
            return;
        }
        if (!*row || st->isNull(0)) return;
        ends[i] = st->u64(0);
    }
    const std::uint64_t first = ends[0], last = ends[1];
    if (m_closedCleanly && m_lastNs != 0 && (first != m_firstNs || last != m_lastNs))
        m_file.issue("the session's metadata says its samples run from " + std::to_string(m_firstNs) + " to "
            + std::to_string(m_lastNs) + " ns, but the sample table holds " + std::to_string(first) + " to "
            + std::to_string(last) + " ns: the table's range is used (damaged metadata)");
    m_firstNs = first;
    m_lastNs = last;
    checkTimeSpan();
}

void SampleTable::checkTimeSpan()
{
    constexpr std::uint64_t kYearNs = 366ull * 24 * 3600 * 1'000'000'000ull;
    if (m_lastNs - m_firstNs <= kYearNs) return;
    // No recorder runs that long: find the jump. The samples next to each end are index look-ups too.
    auto neighbour = [&](const char* sql, std::uint64_t t) -> std::optional<std::uint64_t> {
        auto q = Statement::prepare(m_file.db(), sql);
        if (!q) return std::nullopt;
        q->bind(1, SessionFile::clampNs(t));
        auto r = q->step();
        if (!r || !*r || q->isNull(0)) return std::nullopt;
        return q->u64(0);
    };
    const auto beforeLast = neighbour("SELECT max(time_ns) FROM rdt_samples WHERE time_ns < ?", m_lastNs);
    const auto afterFirst = neighbour("SELECT min(time_ns) FROM rdt_samples WHERE time_ns > ?", m_firstNs);
    const std::uint64_t gapAtEnd = beforeLast ? m_lastNs - *beforeLast : 0;
    const std::uint64_t gapAtStart = afterFirst ? *afterFirst - m_firstNs : 0;
    const bool atEnd = gapAtEnd >= gapAtStart;
    const double years = static_cast<double>(m_lastNs - m_firstNs) / static_cast<double>(kYearNs);
    char span[32];
    std::snprintf(span, sizeof span, "%.0f", years);
    m_file.issue(std::string("the sample time stamps span ") + span + " years, which no recording does: the "
        + (atEnd ? "last" : "first") + " sample time (" + std::to_string(atEnd ? m_lastNs : m_firstNs) + " ns) lies "
        + std::to_string((atEnd ? gapAtEnd : gapAtStart) / 1'000'000'000ull)
        + " s from its neighbour and is probably damaged; replay skips long gaps");
}

std::optional<std::uint64_t> SampleTable::nextSampleTime(std::uint64_t fromNs)
{
    m_file.resetBudget();
    auto q = Statement::prepare(m_file.db(), "SELECT min(time_ns) FROM rdt_samples WHERE time_ns >= ?");
    if (!q) return std::nullopt;
    q->bind(1, SessionFile::clampNs(fromNs));
    auto r = q->step();
    if (!r || !*r || q->isNull(0)) return std::nullopt;
    return q->u64(0);
}

Status SampleTable::scanSamples(
    std::uint64_t fromNs, std::uint64_t toNs, const std::function<bool(const RdtSample&)>& fn, ScanState& state)
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(),
        "SELECT time_ns, group_id, domain, occupancy_bytes, mbm_total_bytes, mbm_local_bytes, mbm_total_bps, "
        "mbm_local_bps, flags FROM rdt_samples WHERE time_ns >= ? AND time_ns < ? ORDER BY time_ns, group_id, domain");
    if (!st) return st.error();
    st->bind(1, SessionFile::clampNs(fromNs)).bind(2, SessionFile::clampNs(toNs));
    RdtSample s;
    for (;;) {
        auto row = st->step();
        if (!row) return row.error();
        if (!*row) return {};
        s.timeNs = st->u64(0);
        const std::int64_t groupId = st->i64(1);
        s.domain = st->i32(2);
        s.occupancyBytes = st->u64(3);
        s.mbmTotalBytes = st->u64(4);
        s.mbmLocalBytes = st->u64(5);
        s.mbmTotalBps = st->f64(6);
        s.mbmLocalBps = st->f64(7);
        s.flags = m_mbmFlagsPerCounter ? st->u32(8) : mbmFlagsOfEitherCounter(st->u32(8));
        if (m_file.damagedRow(*st,
                "rdt_samples row (time_ns " + st->text(0) + ", group_id " + st->text(1) + ", domain " + st->text(2)
                    + ")")) {
            // Skipped, never shown as another number; it still counts as read for the scan's progress.
            ++state.delivered;
            continue;
        }
        s.group = m_file.groupPath(groupId);
        // Rows come in key order; one that goes back in time is a damaged key. SQLite trusts the order, so a
        // range scan past such a key can also stop early: say so instead of returning fewer rows as if complete.
        if (state.any && s.timeNs < state.lastNs) {
            m_file.markDamaged();
            return makeError("sample keys out of order at " + std::to_string(state.lastNs) + " ns (a damaged page)");
        }
        ++state.delivered;
        state.lastNs = s.timeNs;
        state.any = true;
        if (!fn(s)) {
            state.stopped = true;
            return {};
        }
    }
}

Status SampleTable::forEachSample(
    std::uint64_t fromNs, std::uint64_t toNs, const std::function<bool(const RdtSample&)>& fn)
{
    // On a damaged or cut-off page, skip ahead and try again further on: the primary key starts with time_ns,
    // so a later range is a fresh seek that may well land on intact pages. Gaps double in size (1 s, 2 s, 4 s...)
    // and the number of attempts is bounded, so a badly damaged file cannot make this loop for long.
    constexpr std::uint64_t kNsPerS = 1000000000;
    const std::uint64_t end = std::min(toNs, m_lastNs == 0 ? toNs : m_lastNs + 1);
    ScanState state;
    const bool wholeRange = fromNs <= m_firstNs && toNs > m_lastNs;
    std::uint64_t cursor = fromNs;
    std::optional<Error> firstError;
    std::string gaps;
    std::uint64_t step = kNsPerS;
    for (int attempt = 0; attempt < 48; ++attempt) {
        const std::uint64_t deliveredBefore = state.delivered;
        Status s = scanSamples(cursor, toNs, fn, state);
        if (state.stopped) break;
        if (s && wholeRange && state.delivered < m_sampleCount && state.any && state.lastNs + 1 < end) {
            // The scan ended without an error but short of the session's rows: a damaged page ended it. Seek
            // past the last row read (a fresh descent from the root) and read on; when that finds nothing new,
            // skip ahead as after an error.
            m_file.markDamaged();
            if (state.delivered > deliveredBefore) {
                cursor = state.lastNs + 1;
                continue;
            }
            s = makeError("the sample scan ended early at a damaged page");
        }
        if (s) break;
        if (!firstError) firstError = s.error();
        if (isCorruption(m_file.db().lastErrorCode()) || m_file.db().budgetExceeded()) m_file.markDamaged();
        const std::uint64_t gapStart = state.any && state.lastNs >= cursor ? state.lastNs + 1 : cursor;
        cursor = gapStart + step;
        step *= 2;
        const auto secs = [&](std::uint64_t t) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(t - std::min(t, originNs())) * 1e-9);
            return std::string(buf);
        };
        if (gaps.size() < 400)
            gaps += (gaps.empty() ? "" : ", ") + secs(gapStart) + "-" + secs(std::min(cursor, end)) + " s";
        if (cursor >= end) break;
    }
    if (firstError) {
        Error e = *firstError;
        e.message = "samples in " + gaps + " are unreadable (damaged or cut-off pages); "
            + std::to_string(state.delivered) + " samples were read: " + e.message;
        m_file.issue(e.toString());
        if (state.stopped || !wholeRange || state.delivered >= m_sampleCount) return e;
    }
    if (!state.stopped && wholeRange) return checkWholeSessionRead(state.delivered);
    return {};
}

Status SampleTable::checkWholeSessionRead(std::uint64_t delivered)
{
    if (delivered >= m_sampleCount) return {};
    // Fewer rows came back than the session holds, with no error from SQLite: a damaged key ended a scan early.
    // Never hand out a partial session as if it were whole.
    m_file.markDamaged();
    Error e = makeError(std::to_string(m_sampleCount - delivered) + " of " + std::to_string(m_sampleCount)
            + " samples could not be read (a damaged page in the sample table); " + std::to_string(delivered)
            + " samples were read",
        "--salvage keeps what is readable and exits 0");
    m_file.issue(e.toString());
    return e;
}

Result<std::vector<RdtSample>> SampleTable::samples(std::uint64_t fromNs, std::uint64_t toNs, std::size_t limit)
{
    std::vector<RdtSample> out;
    auto s = forEachSample(fromNs, toNs, [&](const RdtSample& smp) {
        out.push_back(smp);
        return out.size() < limit;
    });
    if (!s && out.empty()) return s.error();
    return out; // partial rows are returned; the damage is in issues()
}

} // namespace rdt::session

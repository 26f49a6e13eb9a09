// SPDX-License-Identifier: GPL-3.0-or-later
// SessionReader's range queries: samples, summary, TMA, PMU batches, address maps, symbols.
#include "Compression.h"
#include "SessionReader.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

namespace rdt::session {

// SQLite integers are signed 64-bit: clamp so "until the end" (UINT64_MAX) stays the largest value.
std::int64_t SessionReader::clampNs(std::uint64_t ns)
{
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    return static_cast<std::int64_t>(ns > kMax ? kMax : ns);
}

void SessionReader::loadTimeRange()
{
    // The meta counters are written with each flush, but the rows are the truth: a damaged or edited counter
    // (last_time_ns = 9e18) would make replay wait for years. The table's primary key starts with time_ns, so its
    // range is two index look-ups; it wins when the two disagree.
    // Two statements, not `SELECT min(), max()`: SQLite answers a lone min() or max() of an indexed column from the
    // index, but both in one query scan the whole table (1.5 s for a one-hour session; SQLite's query optimizer
    // overview, "The MIN/MAX optimization").
    resetBudget();
    std::uint64_t ends[2] = { 0, 0 };
    for (int i = 0; i < 2; ++i) {
        auto st = Statement::prepare(
            m_db, i == 0 ? "SELECT min(time_ns) FROM rdt_samples" : "SELECT max(time_ns) FROM rdt_samples");
        if (!st) return;
        auto row = st->step();
        if (!row) {
            noteFailure(row.error(), "the sample time range cannot be read");
            return;
        }
        if (!*row || st->isNull(0)) return;
        ends[i] = st->u64(0);
    }
    const std::uint64_t first = ends[0], last = ends[1];
    if (m_closedCleanly && m_lastNs != 0 && (first != m_firstNs || last != m_lastNs))
        issue("the session's metadata says its samples run from " + std::to_string(m_firstNs) + " to "
            + std::to_string(m_lastNs) + " ns, but the sample table holds " + std::to_string(first) + " to "
            + std::to_string(last) + " ns: the table's range is used (damaged metadata)");
    m_firstNs = first;
    m_lastNs = last;
    checkTimeSpan();
}

void SessionReader::checkTimeSpan()
{
    constexpr std::uint64_t kYearNs = 366ull * 24 * 3600 * 1'000'000'000ull;
    if (m_lastNs - m_firstNs <= kYearNs) return;
    // No recorder runs that long: find the jump. The samples next to each end are index look-ups too.
    auto neighbour = [&](const char* sql, std::uint64_t t) -> std::optional<std::uint64_t> {
        auto q = Statement::prepare(m_db, sql);
        if (!q) return std::nullopt;
        q->bind(1, clampNs(t));
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
    issue(std::string("the sample time stamps span ") + span + " years, which no recording does: the "
        + (atEnd ? "last" : "first") + " sample time (" + std::to_string(atEnd ? m_lastNs : m_firstNs) + " ns) lies "
        + std::to_string((atEnd ? gapAtEnd : gapAtStart) / 1'000'000'000ull)
        + " s from its neighbour and is probably damaged; replay skips long gaps");
}

std::optional<std::uint64_t> SessionReader::nextSampleTime(std::uint64_t fromNs)
{
    resetBudget();
    auto q = Statement::prepare(m_db, "SELECT min(time_ns) FROM rdt_samples WHERE time_ns >= ?");
    if (!q) return std::nullopt;
    q->bind(1, clampNs(fromNs));
    auto r = q->step();
    if (!r || !*r || q->isNull(0)) return std::nullopt;
    return q->u64(0);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> SessionReader::pmuBatchTimeRange(const std::string& kind)
{
    resetBudget();
    auto q = Statement::prepare(
        m_db, "SELECT min(start_ns), max(end_ns) FROM pmu_batches WHERE kind = ? AND start_ns > 0 AND end_ns > 0");
    if (!q) return std::nullopt;
    q->bind(1, kind);
    auto r = q->step();
    if (!r || !*r || q->isNull(0) || q->isNull(1)) return std::nullopt;
    return std::make_pair(q->u64(0), q->u64(1));
}

Status SessionReader::scanSamples(
    std::uint64_t fromNs, std::uint64_t toNs, const std::function<bool(const RdtSample&)>& fn, ScanState& state)
{
    resetBudget();
    auto st = Statement::prepare(m_db,
        "SELECT time_ns, group_id, domain, occupancy_bytes, mbm_total_bytes, mbm_local_bytes, mbm_total_bps, "
        "mbm_local_bps, flags FROM rdt_samples WHERE time_ns >= ? AND time_ns < ? ORDER BY time_ns, group_id, domain");
    if (!st) return st.error();
    st->bind(1, clampNs(fromNs)).bind(2, clampNs(toNs));
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
        s.flags = st->u32(8);
        if (damagedRow(*st,
                "rdt_samples row (time_ns " + st->text(0) + ", group_id " + st->text(1) + ", domain " + st->text(2)
                    + ")")) {
            // Skipped, never shown as another number; it still counts as read for the scan's progress.
            ++state.delivered;
            continue;
        }
        s.group = groupPath(groupId);
        // Rows come in key order; one that goes back in time is a damaged key. SQLite trusts the order, so a
        // range scan past such a key can also stop early: say so instead of returning fewer rows as if complete.
        if (state.any && s.timeNs < state.lastNs) {
            m_damaged = true;
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

Status SessionReader::forEachSample(
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
            m_damaged = true;
            if (state.delivered > deliveredBefore) {
                cursor = state.lastNs + 1;
                continue;
            }
            s = makeError("the sample scan ended early at a damaged page");
        }
        if (s) break;
        if (!firstError) firstError = s.error();
        if (isCorruption(m_db.lastErrorCode()) || m_db.budgetExceeded()) m_damaged = true;
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
        issue(e.toString());
        if (state.stopped || !wholeRange || state.delivered >= m_sampleCount) return e;
    }
    if (!state.stopped && wholeRange) return checkWholeSessionRead(state.delivered);
    return {};
}

Status SessionReader::checkWholeSessionRead(std::uint64_t delivered)
{
    if (delivered >= m_sampleCount) return {};
    // Fewer rows came back than the session holds, with no error from SQLite: a damaged key ended a scan early.
    // Never hand out a partial session as if it were whole.
    m_damaged = true;
    Error e = makeError(std::to_string(m_sampleCount - delivered) + " of " + std::to_string(m_sampleCount)
            + " samples could not be read (a damaged page in the sample table); " + std::to_string(delivered)
            + " samples were read",
        "--salvage keeps what is readable and exits 0");
    issue(e.toString());
    return e;
}

Result<std::vector<RdtSample>> SessionReader::samples(std::uint64_t fromNs, std::uint64_t toNs, std::size_t limit)
{
    std::vector<RdtSample> out;
    auto s = forEachSample(fromNs, toNs, [&](const RdtSample& smp) {
        out.push_back(smp);
        return out.size() < limit;
    });
    if (!s && out.empty()) return s.error();
    return out; // partial rows are returned; the damage is in issues()
}

Result<std::vector<SummaryBucket>> SessionReader::summary(int resolutionS, std::uint64_t fromNs, std::uint64_t toNs)
{
    resetBudget();
    auto st = Statement::prepare(m_db,
        "SELECT bucket, group_id, domain, count, occ_min, occ_max, occ_mean, total_bps_min, total_bps_max, "
        "total_bps_mean, local_bps_min, local_bps_max, local_bps_mean FROM rdt_summary "
        "WHERE resolution_s = ? AND bucket >= ? AND bucket <= ? ORDER BY bucket, group_id, domain");
    if (!st) return noteFailure(st.error(), "the summary is unreadable");
    constexpr std::uint64_t kNsPerS = 1000000000;
    const std::uint64_t res = static_cast<std::uint64_t>(resolutionS > 0 ? resolutionS : 1) * kNsPerS;
    st->bind(1, resolutionS).bind(2, clampNs(fromNs / res)).bind(3, clampNs(toNs / res));
    std::vector<SummaryBucket> out;
    for (;;) {
        auto row = st->step();
        if (!row) {
            noteFailure(row.error(), "the summary is partly unreadable");
            break;
        }
        if (!*row) break;
        SummaryBucket b;
        b.resolutionS = resolutionS;
        b.bucket = st->u64(0);
        const std::int64_t groupId = st->i64(1);
        b.domain = st->i32(2);
        b.count = st->u64(3);
        b.occMin = st->f64(4);
        b.occMax = st->f64(5);
        b.occMean = st->f64(6);
        b.totalMin = st->f64(7);
        b.totalMax = st->f64(8);
        b.totalMean = st->f64(9);
        b.localMin = st->f64(10);
        b.localMax = st->f64(11);
        b.localMean = st->f64(12);
        if (damagedRow(*st, "rdt_summary row (bucket " + st->text(0) + ", group_id " + st->text(1) + ")")) continue;
        b.group = groupPath(groupId);
        out.push_back(std::move(b));
    }
    return out;
}

Result<std::vector<TmaInterval>> SessionReader::tma(std::uint64_t fromNs, std::uint64_t toNs)
{
    resetBudget();
    auto st = Statement::prepare(m_db,
        "SELECT start_ns, end_ns, scope, level, metric, value FROM tma_intervals WHERE start_ns >= ? AND start_ns < ? "
        "ORDER BY start_ns, rowid");
    if (!st) return noteFailure(st.error(), "TMA intervals are unreadable");
    st->bind(1, clampNs(fromNs)).bind(2, clampNs(toNs));
    std::vector<TmaInterval> out;
    for (;;) {
        auto row = st->step();
        if (!row) {
            noteFailure(row.error(), "TMA intervals are partly unreadable");
            break;
        }
        if (!*row) break;
        TmaInterval t { st->u64(0), st->u64(1), st->text(2), st->i32(3), st->text(4), st->f64(5) };
        if (damagedRow(*st, "tma_intervals row at start_ns " + st->text(0))) continue;
        out.push_back(std::move(t));
    }
    return out;
}

void SessionReader::stepPmuBatches(Statement& st, const std::function<bool(PmuBatch&&)>& fn)
{
    for (;;) {
        auto row = st.step();
        if (!row) {
            noteFailure(row.error(), "PMU batches are partly unreadable");
            break;
        }
        if (!*row) break;
        const std::string id = st.text(0);
        if (st.text(5) != "zstd") {
            issue("PMU batch " + id + " uses codec '" + st.text(5) + "', which this rdtscope cannot read: skipped");
            continue;
        }
        const std::uint64_t startNs = st.u64(2), endNs = st.u64(3), count = st.u64(4), rawSize = st.u64(6);
        if (damagedRow(st, "pmu_batches row id " + id)) continue;
        auto data = decompressZstd(st.blob(7), rawSize);
        if (!data) {
            m_damaged = true;
            issue("PMU batch " + id + ": " + data.error().message + "; skipped");
            continue;
        }
        if (!fn({ startNs, endNs, st.text(1), count, std::move(data.value()) })) break;
    }
}

Result<std::vector<PmuBatch>> SessionReader::pmuBatches(
    const std::string& kind, std::uint64_t fromNs, std::uint64_t toNs)
{
    resetBudget();
    auto st = Statement::prepare(m_db,
        "SELECT id, kind, start_ns, end_ns, count, codec, raw_size, data FROM pmu_batches "
        "WHERE (?1 = '' OR kind = ?1) AND end_ns >= ?2 AND start_ns < ?3 ORDER BY start_ns, id");
    if (!st) return noteFailure(st.error(), "PMU batches are unreadable");
    st->bind(1, kind).bind(2, clampNs(fromNs)).bind(3, clampNs(toNs));
    std::vector<PmuBatch> out;
    stepPmuBatches(*st, [&out](PmuBatch&& b) {
        out.push_back(std::move(b));
        return true;
    });
    return out;
}

Status SessionReader::forEachPmuBatch(const std::string& kind, const std::function<bool(PmuBatch&&)>& fn)
{
    resetBudget();
    auto st = Statement::prepare(m_db,
        "SELECT id, kind, start_ns, end_ns, count, codec, raw_size, data FROM pmu_batches WHERE kind = ?1 ORDER BY id");
    if (!st) return noteFailure(st.error(), "PMU batches are unreadable");
    st->bind(1, kind);
    stepPmuBatches(*st, fn);
    return {};
}

Result<std::vector<AddressMap>> SessionReader::addressMaps()
{
    resetBudget();
    auto st = Statement::prepare(
        m_db, "SELECT time_ns, pid, start, end, pgoff, path, build_id FROM address_maps ORDER BY time_ns, rowid");
    if (!st) return noteFailure(st.error(), "address maps are unreadable");
    std::vector<AddressMap> out;
    for (;;) {
        auto row = st->step();
        if (!row) {
            noteFailure(row.error(), "address maps are partly unreadable");
            break;
        }
        if (!*row) break;
        // Addresses are 64-bit patterns (kernel addresses are above 2^63 and stored negative): bits64.
        AddressMap m { st->u64(0), st->i64(1), st->bits64(2), st->bits64(3), st->bits64(4), st->text(5), st->text(6) };
        if (damagedRow(*st, "address_maps row at time_ns " + st->text(0))) continue;
        out.push_back(std::move(m));
    }
    return out;
}

Result<std::vector<Symbol>> SessionReader::symbols()
{
    resetBudget();
    auto st = Statement::prepare(m_db, "SELECT path, address, size, name FROM symbols ORDER BY path, address");
    if (!st) return noteFailure(st.error(), "symbols are unreadable");
    std::vector<Symbol> out;
    for (;;) {
        auto row = st->step();
        if (!row) {
            noteFailure(row.error(), "symbols are partly unreadable");
            break;
        }
        if (!*row) break;
        Symbol sym { st->text(0), st->bits64(1), st->bits64(2), st->text(3) };
        if (damagedRow(*st, "symbols row (" + sym.path + ", address " + st->text(1) + ")")) continue;
        out.push_back(std::move(sym));
    }
    return out;
}

} // namespace rdt::session

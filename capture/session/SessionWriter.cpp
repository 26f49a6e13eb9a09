// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionWriter.h"

#include "Compression.h"
#include "Schema.h"
#include "SessionFileClaim.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt::session {

namespace {

std::string num(std::uint64_t v)
{
    return std::to_string(v);
}

/// Removes a session file this process created and could not finish, with SQLite's companions.
void removeHalfMadeSession(const std::string& path)
{
    for (const char* suffix : { "", "-wal", "-shm", "-journal" })
        (void)::unlink((path + suffix).c_str());
}

} // namespace

Result<std::unique_ptr<SessionWriter>> SessionWriter::create(
    const std::string& path, const SessionMeta& meta, const MachineInfo& machine, WriterOptions options)
{
    auto claim = SessionFileClaim::take(path, options.overwrite, options.inputs);
    if (!claim) return claim.error();
    const std::string writePath = claim->writePath(); // beside the old session when replacing one
    auto db = Database::open(writePath, Database::Mode::Create);
    if (!db) {
        removeHalfMadeSession(writePath);
        return db.error();
    }
    std::unique_ptr<SessionWriter> w(new SessionWriter);
    w->m_claim = std::move(*claim);
    w->m_db = std::move(db.value());
    if (auto s = w->initialise(meta, machine, options); !s) {
        // A full disk (ENOSPC), a file size limit (EFBIG) or an I/O error while the schema was written: the file
        // is ours (the claim created it) and holds no data yet, so it goes, while the claim still holds the path.
        w->m_error = s.error(); // close() writes nothing more
        (void)w->close("creation failed");
        removeHalfMadeSession(writePath);
        Error e = s.error();
        // Nothing was recorded, so the advice for a write error in the middle of a recording does not fit.
        e.message += "; nothing was recorded and the new file was removed";
        if (w->m_claim.replacing()) e.message += " (" + path + " is unchanged)";
        if (e.advice.find("committed before") != std::string::npos)
            e.advice = "the disk is full (or the file size limit was hit): free space and record again";
        return e;
    }
    return w;
}

Status SessionWriter::initialise(const SessionMeta& meta, const MachineInfo& machine, const WriterOptions& options)
{
    // WAL: readers (a GUI following the file) never block the recorder, and a commit is one append, so a killed
    // process loses at most the transaction it had open. synchronous=NORMAL keeps every commit across a process
    // crash (the data is in the kernel); only a power loss can drop the last few commits.
    auto pragmas = m_db.exec("PRAGMA page_size=" + std::to_string(options.pageSize)
        + "; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
          "PRAGMA cache_size=-16384; PRAGMA temp_store=MEMORY;");
    if (!pragmas) return pragmas;
    if (options.maxPageCount > 0) {
        if (auto s = m_db.exec("PRAGMA max_page_count=" + std::to_string(options.maxPageCount)); !s) return s;
    }
    if (auto s = createSchema(m_db); !s) return s;
    if (auto s = prepareStatements(); !s) return s;

    const std::pair<const char*, std::string> metaRows[] = {
        { "start_wall_ns", num(meta.startWallNs) },
        { "start_mono_ns", num(meta.startMonoNs) },
        { "host", meta.host },
        { "kernel", meta.kernel },
        { "source", meta.source },
        { "simulated", meta.simulated ? "1" : "0" },
        { "tool_version", meta.toolVersion },
        { "command_line", meta.commandLine },
        { "scenario", meta.scenario },
        { "interval_ns", num(meta.intervalNs) },
        { "time_is_simulated", meta.timeIsSimulated ? "1" : "0" },
        { "closed_cleanly", "0" },
    };
    for (const auto& [k, v] : metaRows) {
        if (auto s = setMeta(k, v); !s) return s;
    }
    const std::pair<const char*, const std::string*> machineRows[] = {
        { "cpuid_json", &machine.cpuidJson },
        { "topology", &machine.topology },
        { "description", &machine.description },
    };
    for (const auto& [k, v] : machineRows) {
        auto st = Statement::prepare(m_db, "INSERT OR REPLACE INTO machine VALUES (?, ?)");
        if (!st) return st.error();
        st->bind(1, k).bind(2, *v);
        if (auto s = st->run(); !s) return s;
    }
    return flush();
}

SessionWriter::~SessionWriter()
{
    (void)close("writer destroyed");
}

Status SessionWriter::prepareStatements()
{
    struct Item {
        Statement* st;
        const char* sql;
    };
    const Item items[] = {
        { &m_insSample, "INSERT OR REPLACE INTO rdt_samples VALUES (?,?,?,?,?,?,?,?,?)" },
        { &m_insGroup, "INSERT INTO groups (path, first_ns, last_ns, samples) VALUES (?, ?, ?, 0)" },
        { &m_updGroup, "UPDATE groups SET first_ns = ?, last_ns = ?, samples = ? WHERE id = ?" },
        { &m_insAlloc, "INSERT INTO allocation_events VALUES (?,?,?,?,?,?,?,?,?)" },
        { &m_insMember, "INSERT INTO group_membership VALUES (?,?,?,?)" },
        { &m_insMarker, "INSERT INTO markers VALUES (?,?,?)" },
        { &m_insSweep, "INSERT OR REPLACE INTO sweep_steps VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)" },
        { &m_insSweepPmu, "INSERT OR REPLACE INTO sweep_pmu VALUES (?,?,?,?,?,?)" },
        { &m_insTelemetry, "INSERT OR REPLACE INTO telemetry_samples VALUES (?,?,?,?,?,?,?)" },
        { &m_insTma, "INSERT INTO tma_intervals VALUES (?,?,?,?,?,?)" },
        { &m_insPmu,
            "INSERT INTO pmu_batches (kind, start_ns, end_ns, count, codec, raw_size, data) "
            "VALUES (?,?,?,?,'zstd',?,?)" },
        { &m_insMap, "INSERT INTO address_maps VALUES (?,?,?,?,?,?,?)" },
        { &m_insSymbol, "INSERT OR REPLACE INTO symbols VALUES (?,?,?,?)" },
        { &m_setMeta, "INSERT OR REPLACE INTO meta VALUES (?, ?)" },
    };
    for (const auto& it : items) {
        auto st = Statement::prepare(m_db, it.sql);
        if (!st) return st.error();
        *it.st = std::move(st.value());
    }
    std::string multi = "INSERT OR REPLACE INTO rdt_samples VALUES (?,?,?,?,?,?,?,?,?)";
    for (int i = 1; i < kRowsPerInsert; ++i)
        multi += ",(?,?,?,?,?,?,?,?,?)";
    auto st = Statement::prepare(m_db, multi);
    if (!st) return st.error();
    m_insSampleMulti = std::move(st.value());
    return {};
}

Status SessionWriter::fail(Error e)
{
    if (!m_error) {
        e.message = "recording stopped: " + e.message;
        if (m_committedSamples > 0)
            e.message += "; the " + std::to_string(m_committedSamples) + " samples committed before this are kept in "
                + m_db.path();
        else if (m_flushes > 0)
            e.message += "; no sample was committed before this: " + m_db.path() + " holds the machine only";
        m_error = e;
    }
    if (m_inTransaction) {
        // Drop the half-written transaction; what earlier flushes committed stays as it is.
        (void)m_db.exec("ROLLBACK");
        m_inTransaction = false;
        m_pendingSamples = 0;
    }
    return *m_error;
}

Status SessionWriter::begin()
{
    if (m_error) return *m_error;
    if (m_closed) return makeError("the session file " + m_db.path() + " is already closed");
    if (m_inTransaction) return {};
    if (auto s = m_db.exec("BEGIN IMMEDIATE"); !s) return fail(s.error());
    m_inTransaction = true;
    return {};
}

Result<SessionWriter::GroupCounters*> SessionWriter::group(const std::string& path, std::uint64_t timeNs)
{
    if (m_lastGroup && *m_lastGroupPath == path) return m_lastGroup;
    auto it = m_groups.find(path);
    if (it == m_groups.end()) {
        m_insGroup.bind(1, path).bind(2, timeNs).bind(3, timeNs);
        if (auto s = m_insGroup.run(); !s) return fail(s.error()).error();
        it = m_groups.emplace(path, GroupCounters { sqlite3_last_insert_rowid(m_db.handle()) }).first;
    }
    m_lastGroupPath = &it->first;
    m_lastGroup = &it->second;
    return m_lastGroup;
}

Result<std::int64_t> SessionWriter::groupId(const std::string& path, std::uint64_t timeNs)
{
    auto g = group(path, timeNs);
    if (!g) return g.error();
    return (*g)->id;
}

Status SessionWriter::setMeta(const std::string& key, const std::string& value)
{
    if (auto s = begin(); !s) return s;
    m_setMeta.bind(1, key).bind(2, value);
    return check(m_setMeta.run());
}

Status SessionWriter::addSamples(const RdtSampleBatch& batch)
{
    if (auto s = begin(); !s) return s;
    const auto& rows = batch.samples;
    for (std::size_t i = 0; i < rows.size();) {
        // Full chunks go through the multi-row statement, the rest row by row; same rows either way.
        const bool chunk = rows.size() - i >= static_cast<std::size_t>(kRowsPerInsert);
        Statement& st = chunk ? m_insSampleMulti : m_insSample;
        const std::size_t n = chunk ? static_cast<std::size_t>(kRowsPerInsert) : 1;
        for (std::size_t j = 0; j < n; ++j) {
            const RdtSample& smp = rows[i + j];
            auto grp = group(smp.group, smp.timeNs);
            if (!grp) return grp.error();
            GroupCounters& c = **grp;
            const int b = static_cast<int>(j) * 9;
            st.bind(b + 1, smp.timeNs)
                .bind(b + 2, c.id)
                .bind(b + 3, smp.domain)
                .bind(b + 4, smp.occupancyBytes)
                .bind(b + 5, smp.mbmTotalBytes)
                .bind(b + 6, smp.mbmLocalBytes)
                .bind(b + 7, smp.mbmTotalBps)
                .bind(b + 8, smp.mbmLocalBps)
                .bind(b + 9, static_cast<std::int64_t>(smp.flags));
            m_summary.add(smp, c.id);
            if (c.samples == 0 || smp.timeNs < c.first) c.first = smp.timeNs;
            if (smp.timeNs > c.last) c.last = smp.timeNs;
            ++c.samples;
            c.dirty = true;
            if (!m_haveTime || smp.timeNs < m_firstTimeNs)
                m_firstTimeNs = smp.timeNs; // simulated time starts at 0, so 0 is no "unset" marker
            m_haveTime = true;
            if (smp.timeNs > m_lastTimeNs) m_lastTimeNs = smp.timeNs;
        }
        if (auto s = st.run(); !s) return fail(s.error());
        m_pendingSamples += n;
        i += n;
    }
    // PERF_PKG_MON rows (docs/SESSION-FORMAT.md "telemetry_samples"): one per group, package and event.
    for (const auto& t : batch.telemetry) {
        auto gid = groupId(t.group, t.timeNs);
        if (!gid) return gid.error();
        m_insTelemetry.bind(1, t.timeNs).bind(2, *gid).bind(3, t.package).bind(4, t.event).bind(5, t.value);
        m_insTelemetry.bind(6, t.perSecond).bind(7, static_cast<std::int64_t>(t.flags));
        if (auto s = m_insTelemetry.run(); !s) return fail(s.error());
    }
    return {};
}

Status SessionWriter::addAllocation(const AllocationChanged& e)
{
    if (auto s = begin(); !s) return s;
    auto gid = groupId(e.group, e.timeNs);
    if (!gid) return gid.error();
    m_insAlloc.bind(1, e.timeNs).bind(2, e.who).bind(3, *gid).bind(4, e.resource).bind(5, e.domain);
    m_insAlloc.bind(6, e.oldValue).bind(7, e.newValue).bind(8, e.ok ? 1 : 0).bind(9, e.message);
    return check(m_insAlloc.run());
}

Status SessionWriter::addMembership(const MembershipSnapshot& m)
{
    if (auto s = begin(); !s) return s;
    auto gid = groupId(m.group, m.timeNs);
    if (!gid) return gid.error();
    m_insMember.bind(1, m.timeNs).bind(2, *gid).bind(3, m.tasks).bind(4, m.cpus);
    return check(m_insMember.run());
}

Status SessionWriter::addMarker(const Marker& m)
{
    if (auto s = begin(); !s) return s;
    m_insMarker.bind(1, m.timeNs).bind(2, m.kind).bind(3, m.text);
    return check(m_insMarker.run());
}

Status SessionWriter::addSweepStep(const SweepStepRow& r)
{
    if (auto s = begin(); !s) return s;
    m_insSweep.bind(1, std::uint64_t { r.sweep })
        .bind(2, std::uint64_t { r.step })
        .bind(3, r.kind)
        .bind(4, r.group)
        .bind(5, r.value)
        .bind(6, r.written);
    m_insSweep.bind(7, r.startNs).bind(8, r.endNs).bind(9, r.occupancyBytes).bind(10, r.totalBps).bind(11, r.localBps);
    m_insSweep.bind(12, r.victim).bind(13, r.victimOccupancyBytes).bind(14, r.victimTotalBps).bind(15, r.disturbed);
    if (auto s = check(m_insSweep.run()); !s) return s;
    m_insSweepPmu.bind(1, std::uint64_t { r.sweep }).bind(2, std::uint64_t { r.step });
    const std::optional<double>* figures[] = { &r.ipc, &r.mpki, &r.memoryBound };
    for (int i = 0; i < 3; ++i)
        if (*figures[i])
            m_insSweepPmu.bind(3 + i, **figures[i]);
        else
            m_insSweepPmu.bindNull(3 + i); // not measured: NULL, never a zero that reads as a measurement
    m_insSweepPmu.bind(6, r.pmuSource);
    return check(m_insSweepPmu.run());
}

Status SessionWriter::addTma(const std::vector<TmaInterval>& rows)
{
    if (auto s = begin(); !s) return s;
    for (const auto& r : rows) {
        m_insTma.bind(1, r.startNs).bind(2, r.endNs).bind(3, r.scope).bind(4, r.level).bind(5, r.metric);
        m_insTma.bind(6, r.value);
        if (auto s = m_insTma.run(); !s) return fail(s.error());
    }
    return {};
}

Status SessionWriter::addPmuBatch(const PmuBatch& b)
{
    if (auto s = begin(); !s) return s;
    auto z = compressZstd(b.payload);
    if (!z) return fail(z.error());
    m_insPmu.bind(1, b.kind).bind(2, b.startNs).bind(3, b.endNs).bind(4, b.count);
    m_insPmu.bind(5, static_cast<std::uint64_t>(b.payload.size())).bindBlob(6, z->data(), z->size());
    return check(m_insPmu.run());
}

Status SessionWriter::addAddressMap(const AddressMap& m)
{
    if (auto s = begin(); !s) return s;
    m_insMap.bind(1, m.timeNs).bind(2, m.pid).bind(3, m.start).bind(4, m.end).bind(5, m.pgoff);
    m_insMap.bind(6, m.path).bind(7, m.buildId);
    return check(m_insMap.run());
}

Status SessionWriter::addSymbols(const std::vector<Symbol>& symbols)
{
    if (auto s = begin(); !s) return s;
    for (const auto& sym : symbols) {
        m_insSymbol.bind(1, sym.path).bind(2, sym.address).bind(3, sym.size).bind(4, sym.name);
        if (auto s = m_insSymbol.run(); !s) return fail(s.error());
    }
    return {};
}

Status SessionWriter::writeBuckets(const std::vector<Bucket>& buckets)
{
    if (buckets.empty()) return {};
    auto st = Statement::prepare(m_db, "INSERT OR REPLACE INTO rdt_summary VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!st) return st.error();
    // A figure with no valid sample behind it (every reading unknown, docs/SESSION-FORMAT.md) is NULL, not 0.
    const auto bindStat = [&](int column, const Stat& s) {
        if (s.n == 0) {
            st->bindNull(column).bindNull(column + 1).bindNull(column + 2);
            return;
        }
        st->bind(column, s.min).bind(column + 1, s.max).bind(column + 2, s.mean());
    };
    for (const auto& [k, b] : buckets) {
        st->bind(1, std::get<0>(k)).bind(2, std::get<1>(k)).bind(3, std::get<2>(k)).bind(4, std::get<3>(k));
        st->bind(5, b.rows);
        bindStat(6, b.occupancy);
        bindStat(9, b.total);
        bindStat(12, b.local);
        if (b.sketch.empty())
            st->bindNull(15);
        else
            st->bindBlob(15, b.sketch.data(), b.sketch.size());
        if (auto s = st->run(); !s) return s;
    }
    return {};
}

Status SessionWriter::flush()
{
    if (m_error) return *m_error;
    if (auto s = begin(); !s) return s;
    // Summary buckets that can no longer change go in with the rows they summarize.
    auto done = m_summary.takeComplete(m_lastTimeNs);
    if (auto s = writeBuckets(done); !s) return fail(s.error());
    for (auto& [path, c] : m_groups) {
        if (!c.dirty) continue;
        m_updGroup.bind(1, c.first).bind(2, c.last).bind(3, c.samples).bind(4, c.id);
        if (auto s = m_updGroup.run(); !s) return fail(s.error());
        c.dirty = false;
    }
    const std::pair<const char*, std::uint64_t> counters[] = {
        { "first_time_ns", m_firstTimeNs },
        { "last_time_ns", m_lastTimeNs },
        { "sample_count", m_committedSamples + m_pendingSamples },
    };
    for (const auto& [k, v] : counters) {
        m_setMeta.bind(1, k).bind(2, num(v));
        if (auto s = m_setMeta.run(); !s) return fail(s.error());
    }
    if (auto s = m_db.exec("COMMIT"); !s) return fail(s.error());
    m_inTransaction = false;
    m_committedSamples += m_pendingSamples;
    m_pendingSamples = 0;
    ++m_flushes;
    return checkWriteAheadLog();
}

Status SessionWriter::checkWriteAheadLog()
{
    const std::string wal = m_db.path() + "-wal";
    struct stat st { };
    const bool present = ::stat(wal.c_str(), &st) == 0;
    if (present && m_walInode == 0) {
        m_walDevice = st.st_dev;
        m_walInode = st.st_ino;
        return {};
    }
    if (present && st.st_dev == m_walDevice && st.st_ino == m_walInode) return {};
    // The log was deleted (or replaced) under the recorder. SQLite still writes to the descriptor it holds, so
    // every later commit would live only in a file no one can open, and a killed recorder would lose it all. A
    // checkpoint through that descriptor copies what was committed into the session file; then recording stops.
    const auto checkpoint = m_db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    Error e = makeError(wal + " was " + (present ? "replaced" : "deleted") + " while recording",
        checkpoint ? "what was committed was copied into " + m_db.path()
                + " first; record again to a file that nothing else removes (a tmp cleaner?)"
                   : "the copy into " + m_db.path() + " failed too (" + checkpoint.error().message
                + "): the samples since the last checkpoint are lost");
    return fail(e);
}

Status SessionWriter::close(const std::string& stopReason)
{
    if (m_closed) return m_error ? Status(*m_error) : Status();
    Status result;
    if (!m_error) {
        auto all = m_summary.takeAll();
        Status s = begin();
        if (s) s = writeBuckets(all);
        if (s) s = setMeta("closed_cleanly", "1");
        if (s) s = setMeta("stop_reason", stopReason);
        if (s) s = flush();
        if (!s)
            result = fail(s.error());
        else
            (void)m_db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } else {
        result = *m_error;
    }
    m_closed = true;
    m_insSample = {};
    m_insSampleMulti = {};
    m_insGroup = {};
    m_updGroup = {};
    m_insAlloc = {};
    m_insMember = {};
    m_insMarker = {};
    m_insSweep = {};
    m_insSweepPmu = {};
    m_insTelemetry = {};
    m_insTma = {};
    m_insPmu = {};
    m_insMap = {};
    m_insSymbol = {};
    m_setMeta = {};
    m_db.close();
    // A replaced session is renamed over the old one only when the new one is complete; after a failure the old
    // one stays and the new one (named in the error) keeps what was committed.
    if (result && m_claim.replacing() && stopReason != "creation failed") {
        if (auto s = m_claim.commit(); !s) result = s;
    }
    return result;
}

} // namespace rdt::session

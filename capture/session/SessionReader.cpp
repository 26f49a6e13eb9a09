// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionReader.h"
#include "core/Text.h"

#include "Schema.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace rdt::session {

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3"; // 16 bytes with its NUL (https://sqlite.org/fileformat.html)

/// True when the file's header says WAL mode (bytes 18 and 19 are 2, https://sqlite.org/fileformat.html section
/// 1.3.4) and no PATH-wal file exists: what is left of a session copied without its write-ahead log.
bool walModeWithoutLog(const std::string& path)
{
    unsigned char header[20] = {};
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    const bool read = std::fread(header, 1, sizeof header, f) == sizeof header;
    std::fclose(f);
    struct stat st { };
    return read && header[18] == 2 && header[19] == 2 && ::stat((path + "-wal").c_str(), &st) != 0 && errno == ENOENT;
}

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at)
{
    return (std::uint32_t { b[at] } << 24) | (std::uint32_t { b[at + 1] } << 16) | (std::uint32_t { b[at + 2] } << 8)
        | std::uint32_t { b[at + 3] };
}

std::uint64_t toU64(const std::string& s)
{
    std::uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return 0;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v;
}

std::string printable(const std::vector<std::uint8_t>& b, std::size_t n)
{
    std::string s;
    for (std::size_t i = 0; i < std::min(n, b.size()); ++i)
        s += (b[i] >= 32 && b[i] < 127) ? static_cast<char>(b[i]) : '.';
    return s;
}

} // namespace

SessionReader::SessionReader(std::string path, ReaderOptions options)
    : m_file(std::move(path), options)
    , m_samples(m_file)
    , m_summary(m_file)
    , m_pmu(m_file)
    , m_tma(m_file)
    , m_addresses(m_file)
    , m_sweeps(m_file)
    , m_telemetry(m_file)
{ }

Result<std::vector<SweepStepRow>> SessionReader::sweepSteps()
{
    return m_sweeps.sweepSteps();
}

std::optional<std::uint64_t> SessionReader::sketchEnd()
{
    return m_summary.sketchEnd();
}

Status SessionReader::forEachSketch(
    std::uint64_t fromBucket, std::uint64_t toBucket, const std::function<bool(const SketchRow&)>& fn)
{
    return m_summary.forEachSketch(fromBucket, toBucket, fn);
}

Status SessionReader::forEachSample(
    std::uint64_t fromNs, std::uint64_t toNs, const std::function<bool(const RdtSample&)>& fn)
{
    return m_samples.forEachSample(fromNs, toNs, fn);
}

std::optional<std::uint64_t> SessionReader::nextSampleTime(std::uint64_t fromNs)
{
    return m_samples.nextSampleTime(fromNs);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> SessionReader::pmuBatchTimeRange(const std::string& kind)
{
    return m_pmu.pmuBatchTimeRange(kind);
}

Result<std::vector<RdtSample>> SessionReader::samples(std::uint64_t fromNs, std::uint64_t toNs, std::size_t limit)
{
    return m_samples.samples(fromNs, toNs, limit);
}

Result<std::vector<SummaryBucket>> SessionReader::summary(int resolutionS, std::uint64_t fromNs, std::uint64_t toNs)
{
    return m_summary.summary(resolutionS, fromNs, toNs);
}

Result<std::vector<TmaInterval>> SessionReader::tma(std::uint64_t fromNs, std::uint64_t toNs)
{
    return m_tma.tma(fromNs, toNs);
}

Result<std::vector<TelemetrySample>> SessionReader::telemetry(std::uint64_t fromNs, std::uint64_t toNs)
{
    return m_telemetry.telemetry(fromNs, toNs);
}

Result<std::vector<PmuBatch>> SessionReader::pmuBatches(
    const std::string& kind, std::uint64_t fromNs, std::uint64_t toNs)
{
    return m_pmu.pmuBatches(kind, fromNs, toNs);
}

Status SessionReader::forEachPmuBatch(const std::string& kind, const std::function<bool(PmuBatch&&)>& fn)
{
    return m_pmu.forEachPmuBatch(kind, fn);
}

Result<std::vector<AddressMap>> SessionReader::addressMaps()
{
    return m_addresses.addressMaps();
}

Result<std::vector<Symbol>> SessionReader::symbols()
{
    return m_addresses.symbols();
}

Status SessionReader::checkWholeSessionRead(std::uint64_t delivered)
{
    return m_samples.checkWholeSessionRead(delivered);
}

std::string SessionReader::metaValue(const std::string& key) const
{
    auto it = m_metaTable.find(key);
    return it == m_metaTable.end() ? std::string() : it->second;
}

Result<std::unique_ptr<SessionReader>> SessionReader::open(const std::string& path, ReaderOptions options)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0)
        return errnoError(errno, "cannot open session " + path, errno == ENOENT ? "check the file name" : "");
    if (!S_ISREG(st.st_mode))
        return makeError(path + " is not a regular file", "give the path of a .rdts session file");
    std::vector<std::uint8_t> header(100);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return errnoError(errno, "cannot read " + path);
    header.resize(std::fread(header.data(), 1, header.size(), f));
    std::fclose(f);

    std::unique_ptr<SessionReader> r(new SessionReader(path, options));
    struct stat walSt { };
    const bool hasWal = ::stat((path + "-wal").c_str(), &walSt) == 0 && walSt.st_size > 0;
    if (header.size() >= 16 && std::memcmp(header.data(), kSqliteMagic, 16) == 0)
        r->checkHeader(header, static_cast<std::uint64_t>(st.st_size), hasWal);
    // A -wal without a live recorder: read a private copy, so no -shm appears beside the file (readers never
    // modify; PrivateSessionCopy.h).
    auto copy = PrivateSessionCopy::makeIfNeeded(path);
    if (!copy) return copy.error();
    auto db = Database::open(*copy ? (*copy)->path() : path, Database::Mode::ReadOnly);
    if (!db) return db.error();
    r->m_file.attach(std::move(db.value()), std::move(*copy));
    return finishOpen(std::move(r), header, static_cast<std::uint64_t>(st.st_size));
}

Result<std::unique_ptr<SessionReader>> SessionReader::openImage(
    const std::vector<std::uint8_t>& bytes, ReaderOptions options)
{
    std::unique_ptr<SessionReader> r(new SessionReader("<memory image>", options));
    std::vector<std::uint8_t> header(
        bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(100, bytes.size())));
    if (header.size() >= 16 && std::memcmp(header.data(), kSqliteMagic, 16) == 0)
        r->checkHeader(header, bytes.size(), false);
    auto db = Database::openImage(bytes);
    if (!db) return db.error();
    r->m_file.attach(std::move(db.value()));
    return finishOpen(std::move(r), header, bytes.size());
}

void SessionReader::checkHeader(const std::vector<std::uint8_t>& header, std::uint64_t fileSize, bool hasWal)
{
    if (header.size() < 100) return;
    std::uint64_t pageSize = (std::uint64_t { header[16] } << 8) | header[17];
    if (pageSize == 1) pageSize = 65536;
    const std::uint64_t pages = be32(header, 28);
    const std::uint64_t expected = pageSize * pages;
    if (!hasWal && pages > 0 && expected > fileSize) {
        m_file.markDamaged();
        m_file.issue("the file is truncated: it holds " + std::to_string(fileSize) + " of the "
            + std::to_string(expected)
            + " bytes its header announces (was the copy or the recording cut short?); showing what is left");
    }
}

Result<std::unique_ptr<SessionReader>> SessionReader::finishOpen(
    std::unique_ptr<SessionReader> r, const std::vector<std::uint8_t>& header, std::uint64_t fileSize)
{
    const std::string& path = r->path();
    if (fileSize == 0) return makeError(path + " is empty", "the recording never started or the copy failed");
    if (header.size() < 16 || std::memcmp(header.data(), kSqliteMagic, 16) != 0)
        return makeError(path + " is not an rdtscope session file (it starts with \"" + printable(header, 16)
                + "\", not an SQLite header)",
            "give a file written by `rdtscope-cli record` or the GUI");
    if (header.size() < 100)
        return makeError(path + " is truncated inside its 100-byte header (" + std::to_string(fileSize) + " bytes)",
            "nothing can be recovered from it; record again or re-copy the file");
    r->m_file.resetBudget();
    if (auto s = r->loadSchemaInfo(); !s) return s.error();
    r->loadMeta();
    r->loadMachine();
    r->loadGroups();
    r->loadEvents();
    r->m_samples.loadTimeRange();
    return r;
}

Status SessionReader::loadSchemaInfo()
{
    int appId = 0;
    {
        auto st = Statement::prepare(m_file.db(), "PRAGMA application_id");
        if (!st) return m_file.db().lastError(m_file.path() + " cannot be read");
        auto row = st->step();
        if (!row) return row.error();
        appId = *row ? st->i32(0) : 0;
    }
    {
        auto st = Statement::prepare(m_file.db(), "PRAGMA user_version");
        if (!st) return st.error();
        auto row = st->step();
        if (!row) return row.error();
        m_schemaVersion = *row ? st->i32(0) : 0;
    }
    auto st = Statement::prepare(m_file.db(), "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    if (!st) return m_file.db().lastError(m_file.path() + ": the table list cannot be read (damaged first page)");
    for (;;) {
        auto row = st->step();
        if (!row) {
            if (m_file.tables().empty())
                return m_file.db().lastError(m_file.path() + ": the table list cannot be read (damaged first page)");
            m_file.noteFailure(row.error(), "part of the table list is unreadable");
            break;
        }
        if (!*row) break;
        m_file.tables().push_back(st->text(0));
    }
    {
        // rdtscope writes tables and indexes only. A view (which could stand in for a table of the same name and
        // compute anything) or a trigger means the file was made by something else: refuse it.
        auto other = Statement::prepare(
            m_file.db(), "SELECT type, name FROM sqlite_master WHERE type NOT IN ('table', 'index') LIMIT 1");
        if (!other)
            return m_file.db().lastError(m_file.path() + ": the table list cannot be read (damaged first page)");
        auto row = other->step();
        if (row && *row)
            return makeError(m_file.path() + " contains a " + other->text(0) + " named '" + other->text(1)
                    + "', which rdtscope sessions never have; it is not read",
                "give a file written by `rdtscope-cli record` or the GUI");
    }
    auto has = [&](const char* t) {
        return std::find(m_file.tables().begin(), m_file.tables().end(), t) != m_file.tables().end();
    };
    if (appId != kApplicationId && !has("meta")) {
        if (m_file.tables().empty() && walModeWithoutLog(m_file.path()))
            return makeError(m_file.path() + " has no tables of its own and its write-ahead log " + m_file.path()
                    + "-wal is missing",
                "a session being recorded, or one whose recorder was killed, keeps its newest data in the -wal file "
                "beside it: copy FILE and FILE-wal together (or let the recorder stop cleanly first)");
        std::string list;
        for (const auto& t : m_file.tables())
            list += (list.empty() ? "" : ", ") + t;
        return makeError(m_file.path() + " is an SQLite database but not an rdtscope session (application_id "
                + formatHexPadded(static_cast<std::uint32_t>(appId), 8) + ", tables: " + (list.empty() ? "none" : list)
                + ")",
            "give a file written by `rdtscope-cli record` or the GUI");
    }
    if (appId != kApplicationId)
        m_file.issue("the file's application_id is not rdtscope's; reading it as a session anyway");
    if (m_schemaVersion > kSchemaVersion)
        m_file.issue("the file was written with session format " + std::to_string(m_schemaVersion)
            + ", newer than the format " + std::to_string(kSchemaVersion)
            + " this rdtscope reads: showing what this version understands; upgrade rdtscope to see everything");
    for (auto t = requiredTables(); *t; ++t) {
        if (!has(*t)) m_file.issue(std::string("table ") + *t + " is missing (damaged or foreign file)");
    }
    return {};
}

void SessionReader::loadMeta()
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(), "SELECT key, value FROM meta");
    if (!st) {
        m_file.noteFailure(st.error(), "session metadata is unreadable");
        return;
    }
    for (;;) {
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "session metadata is partly unreadable");
            break;
        }
        if (!*row) break;
        m_metaTable[st->text(0)] = st->text(1);
    }
    m_meta.startWallNs = toU64(metaValue("start_wall_ns"));
    m_meta.startMonoNs = toU64(metaValue("start_mono_ns"));
    m_meta.host = metaValue("host");
    m_meta.kernel = metaValue("kernel");
    m_meta.source = metaValue("source");
    m_meta.simulated = metaValue("simulated") == "1";
    m_meta.toolVersion = metaValue("tool_version");
    m_meta.commandLine = metaValue("command_line");
    m_meta.scenario = metaValue("scenario");
    m_meta.intervalNs = toU64(metaValue("interval_ns"));
    m_meta.timeIsSimulated = metaValue("time_is_simulated") == "1";
    m_closedCleanly = metaValue("closed_cleanly") == "1";
    m_samples.setRecorded(toU64(metaValue("first_time_ns")), toU64(metaValue("last_time_ns")),
        toU64(metaValue("sample_count")), m_closedCleanly,
        m_metaTable.count("start_mono_ns") ? std::optional<std::uint64_t>(m_meta.startMonoNs) : std::nullopt,
        metaValue("mbm_flags") == "per-counter");
    if (const auto v = toU64(metaValue("schema_version")); v > static_cast<std::uint64_t>(kSchemaVersion))
        m_file.issue("meta.schema_version is " + std::to_string(v) + ", newer than this rdtscope reads ("
            + std::to_string(kSchemaVersion) + "): upgrade rdtscope to see everything");
    if (!m_metaTable.empty() && !m_closedCleanly)
        m_file.issue(
            "the recording did not close cleanly (killed, crashed or still running): everything up to its last "
            "flush is shown");
}

void SessionReader::loadMachine()
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(), "SELECT key, value FROM machine");
    if (!st) {
        m_file.noteFailure(st.error(), "the machine description is unreadable");
        return;
    }
    for (;;) {
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "the machine description is partly unreadable");
            return;
        }
        if (!*row) return;
        const std::string k = st->text(0);
        if (k == "cpuid_json")
            m_machine.cpuidJson = st->text(1);
        else if (k == "topology")
            m_machine.topology = st->text(1);
        else if (k == "description")
            m_machine.description = st->text(1);
    }
}

void SessionReader::loadGroups()
{
    m_file.resetBudget();
    auto st = Statement::prepare(m_file.db(), "SELECT id, path, first_ns, last_ns, samples FROM groups ORDER BY id");
    if (!st) {
        m_file.noteFailure(st.error(), "the group list is unreadable");
        return;
    }
    std::uint64_t total = 0;
    for (;;) {
        auto row = st->step();
        if (!row) {
            m_file.noteFailure(row.error(), "the group list is partly unreadable");
            break;
        }
        if (!*row) break;
        SessionGroup g { st->i64(0), st->text(1), st->u64(2), st->u64(3), st->u64(4) };
        if (m_file.damagedRow(*st, "groups row id " + st->text(0))) continue;
        m_file.addGroupPath(g.id, g.path);
        total += g.samples;
        m_groups.push_back(std::move(g));
    }
    m_samples.setCountIfUnknown(total);
}

void SessionReader::loadEvents()
{
    m_file.resetBudget();
    if (auto st = Statement::prepare(m_file.db(),
            "SELECT time_ns, who, group_id, resource, domain, old_value, new_value, ok, message "
            "FROM allocation_events ORDER BY time_ns, rowid")) {
        for (;;) {
            auto row = st->step();
            if (!row) {
                m_file.noteFailure(row.error(), "allocation events are partly unreadable");
                break;
            }
            if (!*row) break;
            AllocationChanged e;
            e.timeNs = st->u64(0);
            e.who = st->text(1);
            const std::int64_t groupId = st->i64(2);
            e.resource = st->text(3);
            e.domain = st->i32(4);
            e.oldValue = st->text(5);
            e.newValue = st->text(6);
            e.ok = st->i64(7) != 0;
            e.message = st->text(8);
            if (m_file.damagedRow(*st, "allocation_events row at time_ns " + st->text(0))) continue;
            e.group = m_file.groupPath(groupId);
            m_allocations.push_back(std::move(e));
        }
    } else {
        m_file.noteFailure(st.error(), "allocation events are unreadable");
    }
    m_file.resetBudget();
    if (auto st = Statement::prepare(
            m_file.db(), "SELECT time_ns, group_id, tasks, cpus FROM group_membership ORDER BY time_ns, rowid")) {
        for (;;) {
            auto row = st->step();
            if (!row) {
                m_file.noteFailure(row.error(), "group membership is partly unreadable");
                break;
            }
            if (!*row) break;
            const std::uint64_t timeNs = st->u64(0);
            const std::int64_t groupId = st->i64(1);
            if (m_file.damagedRow(*st, "group_membership row at time_ns " + st->text(0))) continue;
            m_memberships.push_back({ timeNs, m_file.groupPath(groupId), st->text(2), st->text(3) });
        }
    } else {
        m_file.noteFailure(st.error(), "group membership is unreadable");
    }
    m_file.resetBudget();
    if (auto st = Statement::prepare(m_file.db(), "SELECT time_ns, kind, text FROM markers ORDER BY time_ns, rowid")) {
        for (;;) {
            auto row = st->step();
            if (!row) {
                m_file.noteFailure(row.error(), "markers are partly unreadable");
                break;
            }
            if (!*row) break;
            const std::uint64_t timeNs = st->u64(0);
            if (m_file.damagedRow(*st, "markers row at time_ns " + st->text(0))) continue;
            m_markers.push_back({ timeNs, st->text(1), st->text(2) });
        }
    } else {
        m_file.noteFailure(st.error(), "markers are unreadable");
    }
}

} // namespace rdt::session

// SPDX-License-Identifier: GPL-3.0-or-later
// Damaged, truncated, foreign and newer files: a clear message plus what can be read; never a crash or a hang.
#include "Synthetic.h"

#include "session/ReplaySource.h"
#include "session/SessionReader.h"
#include "session/SessionText.h"
#include "session/Sqlite.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

using namespace rdt;
using namespace rdt::session;
using namespace rdt::session::testing;

namespace {

constexpr std::uint64_t kSec = 1'000'000'000;

std::vector<std::uint8_t> readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

void writeAll(const std::string& path, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::string makeSession(const TempDir& dir)
{
    const auto path = dir.file("good.rdts");
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    EXPECT_TRUE(w.ok());
    auto& s = *w.value();
    EXPECT_TRUE(s.addAllocation({ kSec, "initial", "g1", "L3", 0, "", "7ff", true, "" }).ok());
    EXPECT_TRUE(s.addMembership({ kSec, "g1", "1 2", "0-1" }).ok());
    EXPECT_TRUE(s.addMarker({ kSec, "note", "m" }).ok());
    EXPECT_TRUE(s.addTma({ { kSec, 2 * kSec, "system", 1, "retiring", 0.3 } }).ok());
    EXPECT_TRUE(s.addPmuBatch({ kSec, 2 * kSec, "lbr", 10, std::vector<std::uint8_t>(3000, 7) }).ok());
    for (int i = 0; i < 60; ++i)
        EXPECT_TRUE(s.addSamples(syntheticBatch(kSec + static_cast<std::uint64_t>(i) * kSec / 10, 4, 2)).ok());
    EXPECT_TRUE(s.close().ok());
    return path;
}

/// Everything a consumer does with a file; must return (not crash, not hang) whatever the bytes are.
void exerciseReader(SessionReader& r)
{
    (void)formatSummary(r);
    std::size_t n = 0;
    (void)r.forEachSample(0, UINT64_MAX, [&](const RdtSample&) { return ++n < 1000000; });
    (void)r.summary(1);
    (void)r.summary(60);
    (void)r.tma();
    (void)r.pmuBatches();
    (void)r.addressMaps();
    (void)r.symbols();
}

} // namespace

TEST(SessionDamage, TruncatedFilesGiveAClearMessageAndTheReadablePart)
{
    TempDir dir;
    const auto good = readAll(makeSession(dir));
    ASSERT_GT(good.size(), 8192u);
    std::mt19937 rng(12345);
    const auto cut = dir.file("cut.rdts");
    int opened = 0;
    for (int i = 0; i < 40; ++i) {
        const std::size_t len = i == 0 ? 50 : std::uniform_int_distribution<std::size_t>(1, good.size() - 1)(rng);
        writeAll(cut, std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(len)));
        auto r = SessionReader::open(cut);
        if (!r.ok()) {
            EXPECT_FALSE(r.error().message.empty());
            if (len < 100) {
                EXPECT_NE(r.error().message.find("truncated"), std::string::npos) << r.error().message;
            }
            continue;
        }
        ++opened;
        exerciseReader(*r.value());
        ASSERT_FALSE(r.value()->issues().empty()) << "cut at " << len << " went unnoticed";
        EXPECT_TRUE(r.value()->damaged());
        EXPECT_NE(formatSummary(*r.value()).find("problems:"), std::string::npos);
    }
    EXPECT_GT(opened, 20) << "most cuts should still show something";
}

TEST(SessionDamage, AFileCutInHalfStillShowsItsMetadata)
{
    TempDir dir;
    const auto good = readAll(makeSession(dir));
    const auto cut = dir.file("half.rdts");
    writeAll(cut, std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2)));
    auto r = SessionReader::open(cut);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_NE(r.value()->issues().front().find("truncated"), std::string::npos) << r.value()->issues().front();
    EXPECT_EQ(r.value()->meta().host, "testhost"); // meta lives in the first pages
}

TEST(SessionDamage, AFileCutAfterItsFirstPageStillNamesItsTables)
{
    // The whole schema lives in the first page (capture/session/Schema.cpp): a table added to the format must keep
    // it there, or every cut file would lose its table list and open as nothing.
    TempDir dir;
    const auto good = readAll(makeSession(dir));
    ASSERT_GT(good.size(), 4096u);
    const auto cut = dir.file("page1.rdts");
    writeAll(cut, std::vector<std::uint8_t>(good.begin(), good.begin() + 4096));
    auto r = SessionReader::open(cut);
    ASSERT_TRUE(r.ok()) << "the schema no longer fits the first page: " << r.error().toString();
    EXPECT_FALSE(r.value()->issues().empty());
}

TEST(SessionDamage, FlippedBytesNeverCrashTheReader)
{
    TempDir dir;
    const auto good = readAll(makeSession(dir));
    std::mt19937 rng(777);
    for (int i = 0; i < 150; ++i) {
        auto bad = good;
        const int flips = 1 + i % 16;
        for (int f = 0; f < flips; ++f) {
            const auto at = std::uniform_int_distribution<std::size_t>(0, bad.size() - 1)(rng);
            bad[at] = static_cast<std::uint8_t>(bad[at] ^ (1u << (f % 8)));
        }
        auto r = SessionReader::openImage(bad, ReaderOptions { 200000 });
        if (!r.ok()) {
            EXPECT_FALSE(r.error().message.empty());
            continue;
        }
        exerciseReader(*r.value());
        auto shared = std::shared_ptr<SessionReader>(std::move(r.value()));
        ReplaySource replay(shared);
        replay.setSpeed(ReplaySource::kAsFastAsPossible);
        replay.play();
        for (int k = 0; k < 50 && !replay.atEnd(); ++k)
            (void)replay.poll(100);
    }
}

TEST(SessionDamage, NoFlippedByteLosesSamplesSilently)
{
    // Every byte of the file, flipped one at a time: reading the whole session (as export and replay do)
    // either returns every sample the session holds or marks the file damaged and says how many were lost.
    // A flipped B-tree key used to end SQLite's range scan early, so export printed a fraction of the rows and
    // exited 0.
    TempDir dir;
    const auto good = readAll(makeSession(dir));
    std::uint64_t total = 0;
    {
        auto r = SessionReader::openImage(good, ReaderOptions { 200000 });
        ASSERT_TRUE(r.ok());
        total = r.value()->sampleCount();
        ASSERT_EQ(total, 60u * 4 * 2);
    }
    int silent = 0, damagedFound = 0, opened = 0;
    for (std::size_t at = 0; at < good.size(); at += 5) {
        auto bad = good;
        bad[at] = static_cast<std::uint8_t>(bad[at] ^ 0xff);
        auto r = SessionReader::openImage(bad, ReaderOptions { 200000 });
        if (!r.ok()) continue;
        ++opened;
        SessionReader& reader = *r.value();
        std::uint64_t n = 0;
        const Status s = reader.forEachSample(0, UINT64_MAX, [&](const RdtSample&) { return ++n < 1000000; });
        const bool said = !s || reader.damaged();
        if (said) ++damagedFound;
        if (n < total && !said) {
            ++silent;
            ADD_FAILURE() << "byte " << at << ": " << n << " of " << total << " samples read without a word";
        }
    }
    EXPECT_EQ(silent, 0);
    EXPECT_GT(opened, 0);
    EXPECT_GT(damagedFound, 0) << "some flips must hit the sample table";
}

TEST(SessionDamage, ReplayOfADamagedSessionReportsTheLoss)
{
    // One sample key moved forward in time (its rows now sort out of place): SQLite trusts the order, so a
    // range scan delivers fewer or misordered rows. Replay must end with an error naming the damage.
    TempDir dir;
    auto bytes = readAll(makeSession(dir));
    // Keys start with time_ns, stored big-endian in 4 bytes for values below 2^31: the sixth batch is at 1.5 s.
    const std::uint32_t t = static_cast<std::uint32_t>(kSec + 5 * kSec / 10);
    const std::array<std::uint8_t, 4> be { static_cast<std::uint8_t>(t >> 24), static_cast<std::uint8_t>(t >> 16),
        static_cast<std::uint8_t>(t >> 8), static_cast<std::uint8_t>(t) };
    int changed = 0; // every copy: the rows' keys and any interior page's divider key
    for (auto hit = bytes.begin(); (hit = std::search(hit, bytes.end(), be.begin(), be.end())) != bytes.end();) {
        *hit = 0x7f; // 1.5 s -> 2.13 s
        ++changed;
    }
    ASSERT_GE(changed, 8) << "the 8 samples of the batch at 1.5 s";
    auto r = SessionReader::openImage(bytes, ReaderOptions { 200000 });
    ASSERT_TRUE(r.ok());
    auto shared = std::shared_ptr<SessionReader>(std::move(r.value()));
    ReplaySource replay(shared);
    replay.setSpeed(ReplaySource::kAsFastAsPossible);
    replay.play();
    std::size_t delivered = 0;
    for (int k = 0; k < 1000 && !replay.atEnd(); ++k)
        for (const auto& b : replay.poll(100).batches)
            delivered += b.samples.size();
    ASSERT_TRUE(replay.atEnd());
    EXPECT_TRUE(shared->damaged()) << delivered << " samples delivered";
    ASSERT_TRUE(replay.lastError().has_value());
    const std::string& why = replay.lastError()->message;
    EXPECT_TRUE(why.find("could not be read") != std::string::npos || why.find("out of order") != std::string::npos)
        << why;
}

TEST(SessionDamage, ForeignAndNonSqliteFilesAreRefusedByName)
{
    TempDir dir;
    const auto text = dir.file("notes.txt");
    writeAll(text, { 'h', 'e', 'l', 'l', 'o', '\n' });
    auto r1 = SessionReader::open(text);
    ASSERT_FALSE(r1.ok());
    EXPECT_NE(r1.error().message.find("not an rdtscope session"), std::string::npos) << r1.error().message;

    const auto empty = dir.file("empty.rdts");
    writeAll(empty, {});
    auto r2 = SessionReader::open(empty);
    ASSERT_FALSE(r2.ok());
    EXPECT_NE(r2.error().message.find("empty"), std::string::npos);

    const auto foreign = dir.file("other.db");
    {
        auto db = Database::open(foreign, Database::Mode::Create);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("CREATE TABLE songs(title TEXT); INSERT INTO songs VALUES ('x');").ok());
    }
    auto r3 = SessionReader::open(foreign);
    ASSERT_FALSE(r3.ok());
    EXPECT_NE(r3.error().message.find("not an rdtscope session"), std::string::npos) << r3.error().message;
    EXPECT_NE(r3.error().message.find("songs"), std::string::npos) << r3.error().message;

    auto r4 = SessionReader::open(dir.file("missing.rdts"));
    ASSERT_FALSE(r4.ok());
    EXPECT_EQ(r4.error().code, ENOENT);
}

TEST(SessionDamage, NewerFormatIsReadAsFarAsUnderstoodAndSaysSo)
{
    TempDir dir;
    const auto path = makeSession(dir);
    {
        auto db = Database::open(path, Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("PRAGMA user_version = 7; CREATE TABLE future_stuff(x);").ok());
    }
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_FALSE(r.value()->issues().empty());
    EXPECT_NE(r.value()->issues().front().find("newer"), std::string::npos) << r.value()->issues().front();
    auto rows = r.value()->samples(0, UINT64_MAX);
    ASSERT_TRUE(rows.ok());
    EXPECT_EQ(rows->size(), 60u * 8);
}

TEST(SessionDamage, ADamagedPmuBatchIsSkippedAndReported)
{
    TempDir dir;
    const auto path = makeSession(dir);
    {
        auto db = Database::open(path, Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("UPDATE pmu_batches SET raw_size = raw_size + 1").ok());
    }
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    auto batches = r.value()->pmuBatches();
    ASSERT_TRUE(batches.ok());
    EXPECT_TRUE(batches->empty());
    ASSERT_FALSE(r.value()->issues().empty());
    EXPECT_NE(r.value()->issues().back().find("PMU batch"), std::string::npos);
}

TEST(SessionDamage, AViewStandingInForATableIsRefused)
{
    // Sessions are untrusted input: a file whose rdt_samples is a VIEW (computing whatever it likes) is refused
    // by name rather than read as samples.
    TempDir dir;
    const auto path = dir.file("view.rdts");
    {
        auto db = Database::open(path, Database::Mode::Create);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db.value()
                        .exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
                              "CREATE TABLE real_samples(x);"
                              "CREATE VIEW rdt_samples AS SELECT x AS time_ns FROM real_samples;")
                        .ok());
    }
    auto r = SessionReader::open(path);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("contains a view named 'rdt_samples'"), std::string::npos) << r.error().message;
}

TEST(SessionDamage, ReadingAClosedSessionLeavesNothingBehind)
{
    // A closed session (no -wal next to it) is opened immutable: no -wal or -shm files appear, so it can be
    // read from read-only media and a directory listing stays as it was.
    TempDir dir;
    const auto path = makeSession(dir);
    ASSERT_FALSE(std::filesystem::exists(path + "-wal"));
    {
        auto r = SessionReader::open(path);
        ASSERT_TRUE(r.ok()) << r.error().toString();
        std::size_t n = 0;
        ASSERT_TRUE(r.value()->forEachSample(0, UINT64_MAX, [&](const RdtSample&) { return ++n > 0; }).ok());
        EXPECT_EQ(n, 480u);
        EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
        EXPECT_FALSE(std::filesystem::exists(path + "-shm"));
    }
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
    EXPECT_FALSE(std::filesystem::exists(path + "-shm"));
}

// The write-ahead log holds a live session's newest commits. Deleted mid-recording, the recorder used to carry on
// writing into the unlinked file (a SIGKILL then lost everything since the start); now the next flush notices,
// copies what was committed into the session file and stops with the reason.
TEST(SessionDamage, DeletedWriteAheadLogStopsTheRecordingAndKeepsTheCommittedRows)
{
    TempDir dir;
    const auto path = dir.file("wal.rdts");
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    ASSERT_TRUE(w.ok()) << w.error().toString();
    auto& s = *w.value();
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(s.addSamples(syntheticBatch(kSec + static_cast<std::uint64_t>(i) * kSec / 10, 4, 2)).ok());
    ASSERT_TRUE(s.flush().ok());
    ASSERT_TRUE(std::filesystem::remove(path + "-wal"));
    for (int i = 10; i < 20; ++i)
        ASSERT_TRUE(s.addSamples(syntheticBatch(kSec + static_cast<std::uint64_t>(i) * kSec / 10, 4, 2)).ok());
    const Status flushed = s.flush();
    ASSERT_FALSE(flushed.ok()) << "the deleted log went unnoticed";
    EXPECT_NE(flushed.error().toString().find("deleted while recording"), std::string::npos)
        << flushed.error().toString();
    // As a SIGKILL would: no clean close. What was committed must be in the main file already.
    const auto copy = dir.file("copy.rdts");
    std::filesystem::copy_file(path, copy);
    auto r = SessionReader::open(copy);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    auto rows = r.value()->samples(0, UINT64_MAX);
    ASSERT_TRUE(rows.ok());
    EXPECT_EQ(rows->size(), 20u * 8u);
}

TEST(SessionDamage, ACopyWithoutItsWriteAheadLogSaysSo)
{
    TempDir dir;
    const auto path = dir.file("live.rdts");
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    ASSERT_TRUE(w.ok()) << w.error().toString();
    ASSERT_TRUE(w.value()->addSamples(syntheticBatch(kSec, 4, 2)).ok());
    ASSERT_TRUE(w.value()->flush().ok());
    const auto copy = dir.file("copy.rdts"); // the main file only, as `cp live.rdts` copies it mid-recording
    std::filesystem::copy_file(path, copy);
    auto r = SessionReader::open(copy);
    ASSERT_FALSE(r.ok()) << "a copy without its log read as a session";
    EXPECT_NE(r.error().toString().find("-wal is missing"), std::string::npos) << r.error().toString();
}

TEST(SessionDamage, MetadataTimeRangeThatDisagreesWithTheRowsIsCorrectedAndSaid)
{
    TempDir dir;
    const auto path = makeSession(dir);
    {
        auto db = Database::open(path, Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("UPDATE meta SET value='9000000000000000000' WHERE key='last_time_ns'").ok());
    }
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_EQ(r.value()->lastTimeNs(), kSec + 59 * kSec / 10);
    bool named = false;
    for (const auto& i : r.value()->issues())
        named = named || i.find("damaged metadata") != std::string::npos;
    EXPECT_TRUE(named);
}

// Issue #44: SQLite keeps any value in any column. A sample whose value has the wrong type or is out of its range
// is reported as damage naming the row and the column, and skipped; it is never shown as another number (-5 as
// 18446744073709551611, 1.5e300 as 9223372036854775807, a domain of 2^31 as -2^31, text as 0).
TEST(SessionDamage, AValueOfTheWrongTypeOrRangeIsReportedAndSkipped)
{
    struct Row {
        const char* column;
        const char* value; ///< SQL literal
        const char* said; ///< in the issue
    };
    const Row rows[] = {
        { "occupancy_bytes", "'lots'", "column occupancy_bytes holds text" },
        { "occupancy_bytes", "x'0102'", "column occupancy_bytes holds a blob" },
        { "occupancy_bytes", "-5", "column occupancy_bytes holds -5" },
        { "occupancy_bytes", "1.5e300", "column occupancy_bytes holds 1.5" },
        { "domain", "2147483648", "column domain holds 2147483648" },
        { "mbm_total_bytes", "-1", "column mbm_total_bytes holds -1" },
        { "mbm_total_bps", "'fast'", "column mbm_total_bps holds text" },
        { "flags", "4294967296", "column flags holds 4294967296" },
        { "group_id", "2.5", "column group_id holds 2.5" },
    };
    for (const auto& r : rows) {
        SCOPED_TRACE(std::string(r.column) + " = " + r.value);
        TempDir dir;
        const auto path = makeSession(dir);
        {
            auto db = Database::open(path, Database::Mode::ReadWrite);
            ASSERT_TRUE(db.ok());
            // The row of the first time stamp, group 1, domain 1 (the key of a WITHOUT ROWID table).
            ASSERT_TRUE(db->exec(std::string("UPDATE rdt_samples SET ") + r.column + " = " + r.value
                              + " WHERE time_ns = (SELECT min(time_ns) FROM rdt_samples) AND domain = 1 AND "
                                "group_id = (SELECT min(group_id) FROM rdt_samples)")
                            .ok());
        }
        auto reader = SessionReader::open(path);
        ASSERT_TRUE(reader.ok()) << reader.error().toString();
        auto& rd = *reader.value();
        std::size_t n = 0;
        bool shownWrong = false;
        (void)rd.forEachSample(0, UINT64_MAX, [&](const RdtSample& s) {
            ++n;
            shownWrong |= s.occupancyBytes > (1ull << 62) || s.domain < 0 || s.domain > 1;
            return true;
        });
        EXPECT_EQ(n, 479u); // 480 written, the damaged one skipped
        EXPECT_FALSE(shownWrong);
        EXPECT_TRUE(rd.damaged());
        const auto& issues = rd.issues();
        const auto said = std::find_if(issues.begin(), issues.end(), [&](const std::string& i) {
            return i.find("rdt_samples row (time_ns ") != std::string::npos && i.find(r.said) != std::string::npos
                && i.find("the row is skipped") != std::string::npos;
        });
        EXPECT_NE(said, issues.end()) << (issues.empty() ? std::string("no issues") : issues.front());
    }
}

TEST(SessionDamage, ADecompressedSizeBeyondTheFramesRatioIsRefusedBeforeAllocating)
{
    // A batch that claims far more than its frame can hold (a 258 kB session claiming 256 MiB batches) is damage,
    // found without allocating the claimed size; the sizes the writer stores always pass.
    TempDir dir;
    const auto path = makeSession(dir);
    {
        auto db = Database::open(path, Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("UPDATE pmu_batches SET raw_size = 268435456").ok());
    }
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    auto batches = r.value()->pmuBatches();
    ASSERT_TRUE(batches.ok());
    EXPECT_TRUE(batches->empty());
    const auto& issues = r.value()->issues();
    ASSERT_FALSE(issues.empty());
    EXPECT_NE(issues.back().find("times its size"), std::string::npos) << issues.back();
}

TEST(SessionDamage, HighlyCompressibleBatchesStayReadable)
{
    // 4 MiB of one repeated byte compresses far beyond the readers' ratio bound: the writer pads the frame, and the
    // batch reads back byte for byte.
    TempDir dir;
    const auto path = dir.file("zeros.rdts");
    {
        auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
        ASSERT_TRUE(w.ok());
        ASSERT_TRUE(w.value()->addPmuBatch({ kSec, 2 * kSec, "lbr", 1, std::vector<std::uint8_t>(4u << 20, 0) }).ok());
        ASSERT_TRUE(w.value()->close().ok());
    }
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    auto batches = r.value()->pmuBatches();
    ASSERT_TRUE(batches.ok());
    ASSERT_EQ(batches->size(), 1u) << (r.value()->issues().empty() ? "" : r.value()->issues().back());
    EXPECT_EQ(batches->front().payload, std::vector<std::uint8_t>(4u << 20, 0));
}

TEST(SessionDamage, ReadingASessionWithItsWriteAheadLogCreatesNothingBesideIt)
{
    // A copied pair (FILE and FILE-wal, as a killed recorder leaves them) is read with its newest data, and no
    // FILE-shm appears beside it (readers never modify; issue #44). While the recorder runs, it is read live.
    TempDir dir;
    const auto path = dir.file("live.rdts");
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    ASSERT_TRUE(w.ok()) << w.error().toString();
    ASSERT_TRUE(w.value()->addSamples(syntheticBatch(kSec, 4, 2)).ok());
    ASSERT_TRUE(w.value()->flush().ok());
    ASSERT_TRUE(std::filesystem::exists(path + "-wal"));
    const auto copy = dir.file("copy.rdts");
    std::filesystem::copy_file(path, copy);
    std::filesystem::copy_file(path + "-wal", copy + "-wal");
    const auto walBefore = readAll(copy + "-wal");
    {
        auto r = SessionReader::open(copy);
        ASSERT_TRUE(r.ok()) << r.error().toString();
        std::size_t n = 0;
        (void)r.value()->forEachSample(0, UINT64_MAX, [&](const RdtSample&) { return ++n > 0; });
        EXPECT_EQ(n, 8u);
        EXPECT_FALSE(std::filesystem::exists(copy + "-shm"));
    }
    EXPECT_FALSE(std::filesystem::exists(copy + "-shm"));
    EXPECT_EQ(readAll(copy + "-wal"), walBefore);
    // The live file: its recorder's lock says it is being written; the reader sees it as it is.
    auto live = SessionReader::open(path);
    ASSERT_TRUE(live.ok()) << live.error().toString();
    std::size_t n = 0;
    (void)live.value()->forEachSample(0, UINT64_MAX, [&](const RdtSample&) { return ++n > 0; });
    EXPECT_EQ(n, 8u);
}

// Files written before meta.mbm_flags used one set of MBM flags for both counters (docs/SESSION-FORMAT.md): the
// reader marks both counters unknown for them, so an old file never shows a local rate of 0 it could not read;
// a current file keeps each counter's own flags.
TEST(SessionDamage, OlderFilesMbmFlagsStandForBothCounters)
{
    TempDir dir;
    const auto path = makeSession(dir);
    {
        auto db = Database::open(path, Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("UPDATE rdt_samples SET flags = 8").ok()); // SampleMbmUnavailable
    }
    auto flagsRead = [&]() {
        auto r = SessionReader::open(path);
        EXPECT_TRUE(r.ok());
        auto rows = r.value()->samples(0, UINT64_MAX);
        EXPECT_TRUE(rows.ok());
        EXPECT_FALSE(rows->empty());
        return rows->empty() ? 0u : rows->front().flags;
    };
    EXPECT_EQ(flagsRead(), std::uint32_t(SampleMbmUnavailable)); // written with per-counter flags
    {
        auto db = Database::open(path, Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("DELETE FROM meta WHERE key = 'mbm_flags'").ok());
    }
    EXPECT_EQ(flagsRead(), std::uint32_t(SampleMbmUnavailable | SampleMbmLocalUnavailable));
}

// A summary bucket whose bandwidth readings were all unknown (here: MBM local unavailable for the whole session) has
// no local figure: the file holds NULL and the reader gives NaN, never the 0 an empty statistic would print
// (docs/SESSION-FORMAT.md rdt_summary); the total, read fine, keeps its figures.
TEST(SessionDamage, ASummaryWithoutValidValuesIsUnknownNotZero)
{
    TempDir dir;
    const auto path = dir.file("local-unknown.rdts");
    {
        auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
        ASSERT_TRUE(w.ok());
        for (int i = 0; i < 30; ++i) {
            auto b = syntheticBatch(kSec + static_cast<std::uint64_t>(i) * kSec / 10, 2, 1);
            for (auto& s : b.samples)
                s.flags = SampleMbmLocalUnavailable;
            ASSERT_TRUE(w.value()->addSamples(b).ok());
        }
        ASSERT_TRUE(w.value()->close().ok());
    }
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    auto buckets = r.value()->summary(1);
    ASSERT_TRUE(buckets.ok());
    ASSERT_FALSE(buckets->empty());
    for (const auto& b : *buckets) {
        EXPECT_TRUE(std::isnan(b.localMean)) << b.localMean;
        EXPECT_TRUE(std::isnan(b.localMax));
        EXPECT_FALSE(std::isnan(b.totalMean));
    }
    EXPECT_TRUE(r.value()->issues().empty()) << r.value()->issues().front(); // NULL there is not damage
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Synthetic.h"

#include "core/Time.h"
#include "session/Recorder.h"
#include "session/SessionReader.h"
#include "session/StopSignals.h"

#include <csignal>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace rdt;
using namespace rdt::session;
using namespace rdt::session::testing;

namespace {

constexpr int kGroups = 4;
constexpr int kDomains = 2;
constexpr std::uint64_t kRowsPerBatch = kGroups * kDomains;

/// Child side: records synthetic batches every 2 ms, reporting each committed total on `fd`, until
/// a stop signal (when `handleSignals`) or for ever (until SIGKILL). Never returns.
[[noreturn]] void childRecord(const std::string& path, int fd, bool handleSignals)
{
    if (handleSignals) StopSignals::install();
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    if (!w) _exit(10);
    RecorderOptions opt;
    opt.flushIntervalNs = 50'000'000;
    opt.onFlush = [fd](std::uint64_t committed) { (void)!::write(fd, &committed, sizeof committed); };
    Recorder rec(std::move(w.value()), opt);
    rec.start();
    std::uint64_t t = 1'000'000'000;
    while (!StopSignals::requested()) {
        rec.push(syntheticBatch(t, kGroups, kDomains));
        t += 10'000'000;
        ::usleep(2000);
    }
    const Status s = rec.stop(StopSignals::which() == SIGTERM ? "SIGTERM" : "signal");
    _exit(s ? 0 : 11);
}

/// Reads committed totals from the pipe until `flushes` reports arrived (or 10 s passed); returns the last.
std::uint64_t waitForFlushes(int fd, int flushes, int* seen)
{
    std::uint64_t last = 0;
    const std::uint64_t deadline = monotonicNs() + 10'000'000'000ull;
    while (*seen < flushes && monotonicNs() < deadline) {
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, 100) <= 0) continue;
        std::uint64_t v = 0;
        if (::read(fd, &v, sizeof v) == sizeof v) {
            last = v;
            ++*seen;
        }
    }
    return last;
}

std::uint64_t drainLast(int fd, std::uint64_t last)
{
    std::uint64_t v = 0;
    while (::read(fd, &v, sizeof v) == sizeof v)
        last = v;
    return last;
}

} // namespace

TEST(Recorder, WritesEverythingPushedAndClosesCleanly)
{
    TempDir dir;
    const auto path = dir.file("rec.rdts");
    auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
    ASSERT_TRUE(w.ok());
    RecorderOptions opt;
    opt.flushIntervalNs = 10'000'000;
    Recorder rec(std::move(w.value()), opt);
    rec.start();
    for (int i = 0; i < 100; ++i) {
        ASSERT_TRUE(rec.push(syntheticBatch(1'000'000'000 + static_cast<std::uint64_t>(i) * 1'000'000, 2, 2)));
        if (i == 50) {
            ASSERT_TRUE(rec.push(AllocationChanged { 1'050'000'000, "cli", "g1", "L3", 0, "ff", "f", true, "" }));
            ASSERT_TRUE(rec.push(Marker { 1'050'000'000, "note", "half way" }));
        }
    }
    ASSERT_TRUE(rec.stop("done").ok());
    EXPECT_FALSE(rec.push(syntheticBatch(2'000'000'000, 1, 1))); // after stop: refused and counted
    EXPECT_EQ(rec.committedSamples(), 400u);
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.value()->closedCleanly());
    EXPECT_EQ(r.value()->sampleCount(), 400u);
    EXPECT_EQ(r.value()->allocations().size(), 1u);
    EXPECT_EQ(r.value()->markers().size(), 1u);
}

TEST(Recorder, SigkillLosesAtMostTheLastFlush)
{
    TempDir dir;
    const auto path = dir.file("killed.rdts");
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::close(fds[0]);
        childRecord(path, fds[1], false);
    }
    ::close(fds[1]);
    int seen = 0;
    waitForFlushes(fds[0], 6, &seen);
    ASSERT_GE(seen, 6) << "the child never flushed";
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    const std::uint64_t lastReported = drainLast(fds[0], 0);
    ::close(fds[0]);

    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_FALSE(r.value()->closedCleanly());
    EXPECT_FALSE(r.value()->issues().empty()); // says it was not closed cleanly
    auto rows = r.value()->samples(0, UINT64_MAX);
    ASSERT_TRUE(rows.ok());
    // Everything the child saw committed is there; at most the flush in progress is missing. Rows come in
    // whole batches (a transaction never splits one).
    EXPECT_GE(rows->size(), lastReported);
    EXPECT_EQ(rows->size() % kRowsPerBatch, 0u);
    EXPECT_EQ(r.value()->sampleCount(), rows->size()); // meta counters commit with the rows
}

TEST(Recorder, SigtermFlushesAndClosesCleanly)
{
    TempDir dir;
    const auto path = dir.file("term.rdts");
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::close(fds[0]);
        childRecord(path, fds[1], true);
    }
    ::close(fds[1]);
    int seen = 0;
    waitForFlushes(fds[0], 3, &seen);
    ASSERT_GE(seen, 3);
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    ::close(fds[0]);
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_TRUE(r.value()->closedCleanly());
    EXPECT_EQ(r.value()->stopReason(), "SIGTERM");
    EXPECT_TRUE(r.value()->issues().empty());
    EXPECT_GT(r.value()->sampleCount(), 0u);
    EXPECT_EQ(r.value()->sampleCount() % kRowsPerBatch, 0u);
    // The per-second summary covers every sample once the file is closed.
    auto buckets = r.value()->summary(1);
    ASSERT_TRUE(buckets.ok());
    std::uint64_t n = 0;
    for (const auto& b : *buckets)
        n += b.count;
    EXPECT_EQ(n, r.value()->sampleCount());
}

TEST(Recorder, FileSizeLimitStopsRecordingWithAClearErrorAndKeepsTheFile)
{
    TempDir dir;
    const auto path = dir.file("limit.rdts");
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        // A real write error from the kernel: EFBIG past RLIMIT_FSIZE (SIGXFSZ ignored), as on a full disk.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit lim { 1024 * 1024, 1024 * 1024 };
        setrlimit(RLIMIT_FSIZE, &lim);
        auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
        if (!w) _exit(10);
        RecorderOptions opt;
        opt.flushIntervalNs = 5'000'000;
        Recorder rec(std::move(w.value()), opt);
        rec.start();
        std::uint64_t t = 1'000'000'000;
        for (int i = 0; i < 20000 && !rec.failed(); ++i) {
            rec.push(syntheticBatch(t, 16, 4));
            t += 1'000'000;
            ::usleep(200); // a few batches per flush, so several flushes commit before the limit
        }
        const Status s = rec.stop();
        if (s) _exit(12);
        const std::string msg = s.error().toString();
        _exit(msg.find("recording stopped") != std::string::npos ? 0 : 13);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0) << "12: never failed, 13: unclear message";
    auto r = SessionReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    auto rows = r.value()->samples(0, UINT64_MAX);
    ASSERT_TRUE(rows.ok());
    EXPECT_GT(rows->size(), 0u);
    EXPECT_EQ(rows->size() % 64, 0u);
}

// A disk that fills up while the session is being created (schema, machine rows) used to end in SIGSEGV: the
// half-made writer's destructor wrote through statements that were never prepared. Now creation fails with the
// disk's error and removes the file it made, which held no data.
TEST(SessionWriterExhaustion, FullDiskDuringCreationIsAnErrorAndLeavesNoFile)
{
    TempDir dir;
    const auto path = dir.file("full.rdts");
    for (const std::int64_t pages : { 1, 2, 3, 5, 8 }) {
        WriterOptions options;
        options.maxPageCount = pages; // SQLITE_FULL, the error a full disk gives
        auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine(), options);
        ASSERT_FALSE(w.ok()) << pages << " pages were enough for the schema: raise nothing, lower the list";
        EXPECT_NE(w.error().toString().find("full"), std::string::npos) << w.error().toString();
        for (const char* suffix : { "", "-wal", "-shm" })
            EXPECT_FALSE(std::filesystem::exists(path + suffix)) << pages << " pages: " << path << suffix;
    }
}

TEST(SessionWriterExhaustion, FileSizeLimitDuringCreationIsAnErrorAndLeavesNoFile)
{
    TempDir dir;
    const auto path = dir.file("tiny-limit.rdts");
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit lim { 4096, 4096 }; // one page: the schema does not fit
        setrlimit(RLIMIT_FSIZE, &lim);
        auto w = SessionWriter::create(path, syntheticMeta(), syntheticMachine());
        if (w) _exit(10);
        const std::string msg = w.error().toString();
        _exit(msg.find("ulimit -f") != std::string::npos ? 0 : 11);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    ASSERT_EQ(WEXITSTATUS(status), 0) << "10: created past the limit, 11: the advice does not name the limit";
    for (const char* suffix : { "", "-wal", "-shm" })
        EXPECT_FALSE(std::filesystem::exists(path + suffix)) << path << suffix;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The minute sketches of a session (docs/SESSION-FORMAT.md "rdt_summary.sketch", issue #20): a diff that merges them
// gives the same counts, flagged samples and means as reading every row, and percentiles within the sketch's
// stated error; windows that cut minutes read their edges from the rows; a file whose last minutes have no sketch
// (a recorder killed) or a damaged sketch loses nothing.
#include "CompareTestUtil.h"
#include "compare/Profile.h"
#include "session/SessionReader.h"
#include "session/SessionWriter.h"
#include "session/Sqlite.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

using namespace rdt;
using namespace rdt::compare;

namespace {

/// Five and a half minutes of 3 groups x 2 domains at 10 Hz, starting 17.3 s into a minute, with flagged rows,
/// zeros, a counter reset and a group that appears late.
std::string writeSession(const std::string& name)
{
    const std::string path = test::tempDir() + "/" + name;
    session::SessionMeta meta;
    meta.startMonoNs = 77'300'000'000; // 1 min 17.3 s: minutes are cut at both ends
    meta.source = "synthetic";
    meta.simulated = true;
    meta.intervalNs = 100'000'000;
    auto w = session::SessionWriter::create(path, meta, session::MachineInfo {}, session::WriterOptions { true, 0 });
    EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().message);
    if (!w) return {};
    for (std::uint64_t k = 0; k < 3300; ++k) {
        RdtSampleBatch b;
        b.timeNs = meta.startMonoNs + k * meta.intervalNs;
        for (int g = 0; g < 3; ++g) {
            if (g == 2 && k < 900) continue; // appears after 90 s
            for (int d = 0; d < 2; ++d) {
                RdtSample s;
                s.timeNs = b.timeNs;
                s.group = g == 0 ? "" : "g" + std::to_string(g);
                s.domain = d;
                s.occupancyBytes = (k * 7919 + static_cast<std::uint64_t>(g * 31 + d)) % 5000 * 4096;
                s.mbmTotalBps = 1e9 + std::sin(static_cast<double>(k) * 0.01 + g) * 8e8;
                s.mbmLocalBps = k % 50 == 0 ? 0.0 : 5e8 + static_cast<double>(k % 977) * 1e5;
                s.flags = k == 0 || (g == 2 && k == 900) ? static_cast<std::uint32_t>(SampleFirst) : 0u;
                if (k % 211 == 3) s.flags |= SampleMbmError;
                if (k % 307 == 5) s.flags |= SampleOccupancyUnavailable;
                if (k == 1500) s.flags |= SampleCounterReset;
                b.samples.push_back(s);
            }
        }
        EXPECT_TRUE(w.value()->addSamples(b).ok());
        if (k % 10 == 9) {
            EXPECT_TRUE(w.value()->flush().ok());
        }
    }
    EXPECT_TRUE(w.value()->close().ok());
    return path;
}

Profile load(const std::string& path, bool sketches, const std::string& range = {})
{
    LoadOptions o;
    o.useSketches = sketches;
    if (!range.empty()) o.window = parseWindowRange(range).value();
    auto p = loadSessionProfile(path, o);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
    return p.ok() ? *p : Profile {};
}

void expectSame(const SeriesStats& fast, const SeriesStats& rows, const std::string& what)
{
    EXPECT_EQ(fast.count, rows.count) << what;
    EXPECT_NEAR(fast.mean, rows.mean, std::abs(rows.mean) * 1e-12 + 1e-9) << what;
    EXPECT_NEAR(fast.p95, rows.p95, std::abs(rows.p95) * 0.005) << what; // the sketch's stated error (< 0.4 %)
}

void expectSameProfiles(const Profile& fast, const Profile& rows, const std::string& window)
{
    ASSERT_EQ(fast.rdt.size(), rows.rdt.size()) << window;
    ASSERT_FALSE(rows.rdt.empty()) << window;
    for (std::size_t i = 0; i < rows.rdt.size(); ++i) {
        const auto& f = fast.rdt[i];
        const auto& r = rows.rdt[i];
        const std::string what = window + " " + r.group + "/" + std::to_string(r.domain);
        ASSERT_EQ(f.group, r.group) << what;
        ASSERT_EQ(f.domain, r.domain) << what;
        EXPECT_EQ(f.flaggedSamples, r.flaggedSamples) << what;
        expectSame(f.occupancy, r.occupancy, what + " occupancy");
        expectSame(f.totalBw, r.totalBw, what + " total");
        expectSame(f.localBw, r.localBw, what + " local");
    }
}

} // namespace

TEST(SessionSketches, MergedMinutesEqualEveryRow)
{
    const std::string path = writeSession("sketch.rdts");
    {
        auto reader = session::SessionReader::open(path);
        ASSERT_TRUE(reader.ok());
        // Minutes 1..6 hold rows (77.3 s to 407.2 s); the last, partly filled, is written at close.
        EXPECT_EQ((*reader)->sketchEnd(), std::optional<std::uint64_t>(7));
    }
    // The whole session, a window cutting minutes at both ends, one inside a single minute, one from the start.
    for (const std::string window : { "", "10..250.55", "100..110", "..200", "150.05.." }) {
        expectSameProfiles(load(path, true, window), load(path, false, window), "window '" + window + "'");
    }
}

TEST(SessionSketches, MissingOrDamagedSketchesLoseNothing)
{
    const std::string path = writeSession("sketch-damaged.rdts");
    const Profile rows = load(path, false);
    {
        // A recorder killed mid-session leaves its last minutes without sketches: those come from the rows.
        auto db = session::Database::open(path, session::Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("UPDATE rdt_summary SET sketch = NULL WHERE bucket >= 4").ok());
    }
    expectSameProfiles(load(path, true), rows, "last minutes without sketches");
    {
        auto db = session::Database::open(path, session::Database::Mode::ReadWrite);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(db->exec("UPDATE rdt_summary SET sketch = x'0501ff' WHERE resolution_s = 60 AND bucket = 2").ok());
    }
    const Profile damaged = load(path, true);
    expectSameProfiles(damaged, rows, "a damaged sketch");
    bool noted = false;
    for (const auto& n : damaged.notes)
        noted |= n.find("minute sketches cannot be read") != std::string::npos;
    EXPECT_TRUE(noted) << "the fallback to the rows is said";
}

// SPDX-License-Identifier: GPL-3.0-or-later
// TMA intervals in sessions (table tma_intervals), compared in points, time-weighted over the window.

#include "CompareTestUtil.h"
#include "session/SessionWriter.h"

#include <gtest/gtest.h>

using namespace rdt::compare;
using namespace rdt::compare::test;

namespace {

std::string writeSession(const std::string& path, double backendFirst, double backendSecond)
{
    rdt::session::SessionMeta meta;
    meta.source = "synthetic";
    meta.intervalNs = 1'000'000'000;
    auto w = rdt::session::SessionWriter::create(path, meta, {});
    EXPECT_TRUE(w.ok()) << (w ? "" : w.error().toString());
    std::vector<rdt::session::TmaInterval> rows;
    // 1 s at backendFirst, then 3 s at backendSecond: the window mean weights them 1:3.
    rows.push_back({ 0, 1'000'000'000, "system", 1, "backend_bound", backendFirst });
    rows.push_back({ 1'000'000'000, 4'000'000'000, "system", 1, "backend_bound", backendSecond });
    rows.push_back({ 0, 4'000'000'000, "system", 2, "memory_bound", 0.25 });
    EXPECT_TRUE((*w)->addTma(rows).ok());
    rdt::RdtSampleBatch batch;
    for (std::uint64_t t = 0; t <= 4; ++t) {
        batch.timeNs = t * 1'000'000'000;
        batch.samples = { rdt::RdtSample { batch.timeNs, "p0", 0, 1024 * (t + 1), 0, 0, 1e9, 1e9, 0 } };
        EXPECT_TRUE((*w)->addSamples(batch).ok());
    }
    EXPECT_TRUE((*w)->close("done").ok());
    return path;
}

} // namespace

TEST(CompareTma, PointsAreTimeWeightedMeans)
{
    const std::string dir = tempDir();
    CompareRequest req;
    req.pathA = writeSession(dir + "/a.rdts", 0.40, 0.40);
    req.pathB = writeSession(dir + "/b.rdts", 0.20, 0.60);
    auto c = compareFiles(req);
    ASSERT_TRUE(c.ok()) << c.error().toString();
    const DiffRow* be = findRow(*c, Section::Tma, "backend_bound", "level1");
    ASSERT_NE(be, nullptr);
    EXPECT_NEAR(*be->a, 40.0, 1e-9);
    EXPECT_NEAR(*be->b, 50.0, 1e-9); // (0.2 * 1 + 0.6 * 3) / 4
    EXPECT_NEAR(*be->delta(), 10.0, 1e-9);
    const DiffRow* mem = findRow(*c, Section::Tma, "memory_bound", "level2");
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(*mem->delta(), 0.0);
    // The first TMA row is the one that changed.
    for (const auto& r : c->rows)
        if (r.section == Section::Tma) {
            EXPECT_EQ(r.item, "backend_bound");
            break;
        }
    // Occupancy mean over the whole session: 1..5 KiB.
    const DiffRow* occ = findRow(*c, Section::Rdt, "p0", "occupancy_mean", 0);
    ASSERT_NE(occ, nullptr);
    EXPECT_DOUBLE_EQ(*occ->a, 3 * 1024.0);

    // A window of the first two seconds: TMA intervals overlapping it, samples inside it.
    req.loadB.window.kind = Window::Kind::Range;
    req.loadB.window.toS = 2;
    auto early = compareFiles(req);
    ASSERT_TRUE(early.ok());
    // [0, 2): the samples at 0 and 1 s (1 and 2 KiB); the one at 2 s belongs to what follows.
    EXPECT_DOUBLE_EQ(*findRow(*early, Section::Rdt, "p0", "occupancy_mean", 0)->b, 1.5 * 1024.0);
}

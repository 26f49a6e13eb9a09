// SPDX-License-Identifier: GPL-3.0-or-later
// Two noisy-neighbour sessions recorded by rdtscope-cli, before the fence (0-19 s) and after it (41-60 s: CAT
// fence at 20 s and MBA cap at 40 s): the victim keeps its cache, the streamer loses bandwidth. Then windows,
// markers, the CLI's three output forms (parsed back), and sessions from different simulated CPUs.

#include "CompareTestUtil.h"
#include "compare/CompareFormat.h"
#include "core/Json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace rdt::compare;
using namespace rdt::compare::test;

namespace {

Comparison beforeAfter(Window windowB)
{
    const auto& pair = noisyNeighbourPair();
    CompareRequest req;
    req.pathA = pair.before;
    req.pathB = pair.after;
    req.loadB.window = windowB;
    auto c = compareFiles(req);
    EXPECT_TRUE(c.ok()) << (c ? "" : c.error().toString());
    return c ? std::move(c).value() : Comparison {};
}

Window range(double from, double to)
{
    Window w;
    w.kind = Window::Kind::Range;
    w.fromS = from;
    w.toS = to;
    return w;
}

std::vector<std::string> split(const std::string& line)
{
    std::vector<std::string> f;
    std::string cur;
    bool quoted = false;
    for (char ch : line) {
        if (ch == '"')
            quoted = !quoted;
        else if (ch == ',' && !quoted) {
            f.push_back(cur);
            cur.clear();
        } else
            cur += ch;
    }
    f.push_back(cur);
    return f;
}

} // namespace

TEST(CompareSessions, FenceRaisesVictimOccupancyAndCapLowersStreamerBandwidth)
{
    const Comparison c = beforeAfter(range(41, 60));
    const DiffRow* occ = findRow(c, Section::Rdt, "victim", "occupancy_mean", 0);
    ASSERT_NE(occ, nullptr);
    ASSERT_TRUE(occ->ratio());
    EXPECT_GE(*occ->ratio(), 1.5) << "victim occupancy " << *occ->a << " -> " << *occ->b;
    const DiffRow* bw = findRow(c, Section::Rdt, "streamer", "total_bw_mean", 0);
    ASSERT_NE(bw, nullptr);
    EXPECT_LT(*bw->b, *bw->a * 0.7) << "streamer bandwidth " << *bw->a << " -> " << *bw->b;
    EXPECT_LT(*findRow(c, Section::Rdt, "streamer", "total_bw_p95", 0)->ratio(), 1.0);
    // The allocation in force at each window's end: 11 ways, then 2 (2.25 MiB each on the Xeon Gold 6154).
    const DiffRow* ways = findRow(c, Section::Allocation, "L3", "ways", 0);
    for (const auto& r : c.rows)
        if (r.section == Section::Allocation && r.group == "streamer" && r.item == "L3" && r.metric == "ways")
            ways = &r;
    ASSERT_NE(ways, nullptr);
    EXPECT_EQ(ways->textA, "7ff");
    EXPECT_EQ(ways->textB, "3");
    EXPECT_EQ(*ways->a, 11);
    EXPECT_EQ(*ways->b, 2);
    // The same machine, the same interval: nothing to warn about; both groups and the default group on both sides.
    for (const auto& m : c.mismatches)
        ADD_FAILURE() << m.kind << ": " << m.text;
    EXPECT_TRUE(c.a.simulated && c.b.simulated);
    EXPECT_EQ(c.a.family, 6u);
    EXPECT_EQ(c.a.model, 0x55u);
    EXPECT_TRUE(c.b.changes.empty()) << "no change between 41 and 60 s";
}

TEST(CompareSessions, BetweenMarkersFindsTheFenceAndTheCap)
{
    Window w;
    w.kind = Window::Kind::Markers;
    w.fromMarker = "fence the streamer";
    w.toMarker = "cap the streamer";
    const Comparison c = beforeAfter(w);
    EXPECT_NEAR(c.b.fromS, 20.0, 0.01);
    EXPECT_NEAR(c.b.toS, 40.0, 0.01);
    // The fence's writes are inside the window, the cap's are not.
    bool fence = false, cap = false;
    for (const auto& ch : c.b.changes) {
        fence = fence || (ch.group == "streamer" && ch.resource == "L3" && ch.newValue == "3");
        cap = cap || ch.resource == "MB";
    }
    EXPECT_TRUE(fence);
    EXPECT_FALSE(cap);

    CompareRequest req;
    req.pathA = req.pathB = noisyNeighbourPair().after;
    req.loadA.window = w;
    req.loadA.window.toMarker = "no such marker";
    auto bad = compareFiles(req);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("no marker containing 'no such marker'"), std::string::npos);
    EXPECT_NE(bad.error().advice.find("Fence the streamer"), std::string::npos) << "the advice lists the markers";
}

TEST(CompareSessions, SameSessionAgainstItselfChangesNothing)
{
    CompareRequest req;
    req.pathA = req.pathB = noisyNeighbourPair().after;
    auto c = compareFiles(req);
    ASSERT_TRUE(c.ok());
    ASSERT_FALSE(c->rows.empty());
    for (const auto& r : c->rows) {
        if (r.delta()) {
            EXPECT_EQ(*r.delta(), 0.0) << r.item << " " << r.metric;
        }
        EXPECT_EQ(r.textA, r.textB);
    }
}

TEST(CompareSessionsCli, TableCsvAndJsonAgree)
{
    const auto& pair = noisyNeighbourPair();
    const std::string files = "'" + pair.before + "' '" + pair.after + "' --window B:41..60";
    int rc = -1;
    const std::string table = cli("diff " + files, &rc);
    ASSERT_EQ(rc, 0) << table;
    EXPECT_NE(table.find("RDT per group and domain"), std::string::npos) << table;
    EXPECT_NE(table.find("SIMULATED"), std::string::npos);
    // The two groups that changed come before the default group, whose few kB/s fell to 0.
    const auto victim = table.find("\nvictim"), streamer = table.find("\nstreamer"), rest = table.find("\ndefault");
    ASSERT_NE(victim, std::string::npos) << table;
    ASSERT_NE(rest, std::string::npos) << table;
    EXPECT_LT(victim, rest) << table;
    EXPECT_LT(streamer, rest) << table;

    const std::string csv = cli("diff " + files + " --csv", &rc);
    ASSERT_EQ(rc, 0) << csv;
    std::istringstream lines(csv);
    std::string header;
    std::getline(lines, header);
    EXPECT_EQ(header, kCsvHeader);
    const auto columns = split(header).size();
    double csvRatio = 0;
    int rows = 0;
    for (std::string line; std::getline(lines, line); ++rows) {
        const auto f = split(line);
        ASSERT_EQ(f.size(), columns) << line;
        if (f[0] == "rdt" && f[2] == "victim" && f[3] == "0" && f[4] == "occupancy_mean") csvRatio = std::stod(f[9]);
    }
    EXPECT_GE(csvRatio, 1.5);

    const std::string json = cli("diff " + files + " --json", &rc);
    ASSERT_EQ(rc, 0);
    auto doc = rdt::json::parse(json);
    ASSERT_TRUE(doc.ok()) << doc.error().toString() << json.substr(0, 400);
    EXPECT_EQ(doc->at("format"), "rdtscope-diff");
    EXPECT_EQ(doc->at("b").at("window").at("from_s").get<double>(), 41.0);
    ASSERT_TRUE(doc->at("rows").is_array());
    EXPECT_EQ(static_cast<int>(doc->at("rows").size()), rows) << "CSV and JSON hold the same rows";
    double jsonRatio = 0;
    for (const auto& r : doc->at("rows"))
        if (r.at("group") == "victim" && r.at("metric") == "occupancy_mean" && r.at("domain") == 0)
            jsonRatio = r.at("ratio").get<double>();
    EXPECT_DOUBLE_EQ(jsonRatio, csvRatio);

    // Usage errors: exit 2 with the reason.
    const std::string bad = cli("diff " + files + " --window B:50..40", &rc, true);
    EXPECT_EQ(rc, 2);
    EXPECT_NE(bad.find("ends before it starts"), std::string::npos) << bad;
    cli("diff '" + pair.before + "'", &rc);
    EXPECT_EQ(rc, 2);
    const std::string missing = cli("diff '" + pair.before + "' /nonexistent.rdts", &rc, true);
    EXPECT_EQ(rc, 1);
    EXPECT_NE(missing.find("B: "), std::string::npos) << missing;
}

TEST(CompareSessionsCli, DifferentSimulatedCpusWarn)
{
    const std::string dir = tempDir();
    std::ifstream in(std::string(RDTSCOPE_SOURCE_DIR) + "/resources/scenarios/noisy-neighbour.scn");
    std::stringstream text;
    text << in.rdbuf();
    std::string scn = text.str();
    const auto at = scn.find("preset=skx-6154");
    ASSERT_NE(at, std::string::npos);
    scn.replace(at, 15, "preset=icx-8351n");
    std::ofstream(dir + "/icx.scn") << scn;
    int rc = -1;
    auto out = cli("record -o '" + dir + "/icx.rdts' --source sim --scenario '" + dir
            + "/icx.scn' --duration 3 "
              "--interval 200",
        &rc, true);
    ASSERT_EQ(rc, 0) << out;
    out = cli("diff '" + noisyNeighbourPair().before + "' '" + dir + "/icx.rdts'", &rc, true);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(
        out.find("different CPUs: A is family 6 model 85 (0x55), B is family 6 model 106 (0x6A)"), std::string::npos)
        << out;
    EXPECT_NE(out.find("different sampling intervals: A 100 ms, B 200 ms"), std::string::npos) << out;
}

TEST(CompareSessions, WaysInMiBUseTheRecordedResctrlSize)
{
    // Two recordings of the 4-domain fixture tree (2.75 MiB per CBM bit, resctrl's size) around a fence of
    // Guaranteed to 8 ways: the MiB row is 8 x 2.75, whatever CPU recorded them (this AMD machine's CPUID has no
    // Intel CAT leaf, so it had no MiB row; an Intel laptop's would have given its own L3's bytes per bit).
    const std::string dir = tempDir();
    const std::string tree = dir + "/resctrl";
    ASSERT_EQ(std::system(("cp -r '" RDTSCOPE_TEST_DATA "/resctrl/resctrl.full' '" + tree + "'").c_str()), 0);
    int rc = -1;
    cli("record -o '" + dir + "/a.rdts' --source resctrl:" + tree + " --duration 0.3", &rc, true);
    ASSERT_EQ(rc, 0);
    cli("alloc --source resctrl:" + tree + " set --group Guaranteed 'L3:0=ff'", &rc, true);
    ASSERT_EQ(rc, 0);
    cli("record -o '" + dir + "/b.rdts' --source resctrl:" + tree + " --duration 0.3", &rc, true);
    ASSERT_EQ(rc, 0);
    CompareRequest req;
    req.pathA = dir + "/a.rdts";
    req.pathB = dir + "/b.rdts";
    auto c = compareFiles(req);
    ASSERT_TRUE(c.ok()) << c.error().toString();
    const DiffRow* mib = nullptr;
    for (const auto& r : c->rows)
        if (r.section == Section::Allocation && r.group == "Guaranteed" && r.item == "L3" && r.metric == "mib"
            && r.domain == 0)
            mib = &r;
    ASSERT_NE(mib, nullptr);
    ASSERT_TRUE(mib->a && mib->b);
    EXPECT_DOUBLE_EQ(*mib->a, 20 * 2.75);
    EXPECT_DOUBLE_EQ(*mib->b, 8 * 2.75);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The done-when, run through the real rdtscope-cli binary: the noisy-neighbour fence experiment on the
// simulator, and the same commands on a temp copy of a fixture tree.
#include "TestTree.h"
#include "core/IdList.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <sys/wait.h>

namespace {
struct Run {
    int status = -1;
    std::string out;
    std::string err;
};

Run run(const std::string& args)
{
    char errTempl[] = "/tmp/rdt-cli-err-XXXXXX";
    const int fd = ::mkstemp(errTempl);
    ::close(fd);
    const std::string cmd = std::string(RDTSCOPE_CLI) + " " + args + " 2>" + errTempl;
    Run r;
    FILE* p = ::popen(cmd.c_str(), "r");
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        r.out.append(buf, n);
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::ifstream e(errTempl);
    r.err.assign(std::istreambuf_iterator<char>(e), {});
    std::remove(errTempl);
    return r;
}

struct Row {
    double t;
    std::string group;
    int domain;
    double occupancy, total, local;
};

std::vector<Row> parseCsv(const std::string& text, std::string& header)
{
    std::istringstream in(text);
    std::getline(in, header);
    std::vector<Row> rows;
    std::string line;
    while (std::getline(in, line)) {
        Row r;
        std::istringstream f(line);
        std::string cell;
        std::vector<std::string> cells;
        while (std::getline(f, cell, ','))
            cells.push_back(cell);
        EXPECT_EQ(cells.size(), 6u) << line;
        if (cells.size() != 6) continue;
        r.t = std::stod(cells[0]);
        r.group = cells[1];
        r.domain = std::stoi(cells[2]);
        r.occupancy = std::stod(cells[3]);
        r.total = std::stod(cells[4]);
        r.local = std::stod(cells[5]);
        rows.push_back(r);
    }
    return rows;
}
const char* kHeader = "time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps";
}

TEST(RdtCli, NoisyNeighbourFenceRaisesVictimOccupancy)
{
    auto r = run("monitor --source sim --scenario noisy-neighbour --duration 20 --csv --at 10:streamer:L3:0=3");
    ASSERT_EQ(r.status, 0) << r.err;
    std::string header;
    auto rows = parseCsv(r.out, header);
    EXPECT_EQ(header, kHeader);
    EXPECT_NE(r.err.find("SIMULATED"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at 10.000 s: applied 'L3:0=3' to streamer"), std::string::npos) << r.err;
    double before = 0, after = 0;
    int nb = 0, na = 0, victimRows = 0;
    std::map<std::string, int> perGroup;
    for (const auto& row : rows) {
        perGroup[row.group]++;
        EXPECT_GE(row.total, row.local);
        if (row.group != "victim") continue;
        ++victimRows;
        if (row.t > 2 && row.t <= 10) {
            before += row.occupancy;
            ++nb;
        } else if (row.t > 12) {
            after += row.occupancy;
            ++na;
        }
    }
    EXPECT_EQ(victimRows, 20); // one row per interval for 20 s at the default 1 s
    ASSERT_GT(nb, 0);
    ASSERT_GT(na, 0);
    before /= nb;
    after /= na;
    EXPECT_GT(after, before * 1.2) << "victim occupancy before " << before << " after " << after;
    // time_s is simulated seconds: the last row is at 20 s although the run took less wall time.
    EXPECT_DOUBLE_EQ(rows.back().t, 20.0);
    for (const auto& [g, n] : perGroup)
        EXPECT_EQ(n, 20) << g;
}

TEST(RdtCli, SameCommandsOnAFixtureTreeWorkOrSayWhy)
{
    rdt::test::TempTree t("resctrl.full");
    const std::string src = " --source resctrl:" + t.root();
    auto m = run("monitor --duration 2 --interval 500 --csv --at 1:streamer:L3:0=3" + src);
    EXPECT_EQ(m.status, 1) << m.err; // monitoring works, the scripted change fails with the reason
    EXPECT_NE(m.err.find("no group 'streamer'"), std::string::npos) << m.err;
    std::string header;
    auto rows = parseCsv(m.out, header);
    EXPECT_EQ(header, kHeader);
    EXPECT_EQ(rows.size(), 4u * 12u * 4u); // 4 intervals x 12 groups (control and monitor) x 4 domains
    EXPECT_EQ(m.err.find("SIMULATED"), std::string::npos);

    // With a group that exists, the change is applied and read back.
    auto ok = run("monitor --duration 1 --interval 500 --csv --at 0.5:Guaranteed:L3:0=3" + src);
    EXPECT_EQ(ok.status, 0) << ok.err;
    EXPECT_NE(t.read("Guaranteed/schemata").find("L3:0=3;"), std::string::npos);

    auto show = run("alloc show" + src);
    EXPECT_EQ(show.status, 0) << show.err;
    EXPECT_NE(show.out.find("cbm_mask fffff"), std::string::npos);
    auto set = run("alloc set --group Guaranteed 'L3:0=ff0;1=ff0' 'MB:2=55'" + src);
    EXPECT_EQ(set.status, 0) << set.err;
    EXPECT_NE(set.out.find("55 rounded up to 60"), std::string::npos);
    EXPECT_NE(t.read("Guaranteed/schemata").find("MB:0=100;1=100;2=60;3=100"), std::string::npos);
    auto bad = run("alloc set --group Guaranteed 'L3:0=f0f'" + src);
    EXPECT_EQ(bad.status, 1);
    EXPECT_NE(bad.err.find("non-consecutive"), std::string::npos);

    EXPECT_EQ(run("groups create p7" + src).status, 0);
    EXPECT_EQ(run("groups assign Guaranteed --cpus 3-4" + src).status, 0);
    EXPECT_EQ(t.read("Guaranteed/cpus_list"), "3-4\n");
    // A plain directory has none of the files the kernel would create with the group: say so.
    auto plain = run("groups assign p7 --cpus 3-4" + src);
    EXPECT_EQ(plain.status, 3);
    EXPECT_NE(plain.err.find("not the kernel"), std::string::npos) << plain.err;
    auto list = run("groups list" + src);
    EXPECT_NE(list.out.find("p7"), std::string::npos);
    EXPECT_EQ(run("groups delete p7" + src).status, 0);
    auto missing = run("groups delete nope" + src);
    EXPECT_EQ(missing.status, 3);
    EXPECT_NE(missing.err.find("groups list"), std::string::npos);
}

TEST(RdtCli, CpuAndPidListsAreBoundedByTheMachine)
{
    rdt::test::TempTree t("resctrl.full"); // CPUs 0-191
    const std::string src = " --source resctrl:" + t.root();
    const auto before = t.read("Guaranteed/cpus_list");
    for (const char* list : { "4294967295", "0-4294967295", "0-4194304", "192", "18446744073709551616" }) {
        auto r = run(std::string("groups assign Guaranteed --cpus ") + list + src);
        EXPECT_EQ(r.status, 2) << list << ": " << r.err;
        EXPECT_NE(r.err.find("this machine has CPUs 0-191"), std::string::npos) << list << ": " << r.err;
    }
    EXPECT_EQ(t.read("Guaranteed/cpus_list"), before);
    auto pid = run("groups assign Guaranteed --pids 4294967295" + src);
    EXPECT_EQ(pid.status, 2) << pid.err;
    EXPECT_NE(pid.err.find("PID 4294967295 is out of range"), std::string::npos) << pid.err;
    std::vector<unsigned> absent; // two PIDs below pid_max that no process has
    for (auto p = rdt::systemPidMax() - 1; p > 1 && absent.size() < 2; --p)
        if (!std::filesystem::exists("/proc/" + std::to_string(p))) absent.insert(absent.begin(), unsigned(p));
    ASSERT_EQ(absent.size(), 2u);
    const auto a = std::to_string(absent[0]), b = std::to_string(absent[1]);
    auto gone = run("groups assign Guaranteed --pids " + b + "," + a + src);
    EXPECT_EQ(gone.status, 1) << gone.err;
    EXPECT_NE(gone.err.find("no processes with PIDs " + a + ", " + b), std::string::npos) << gone.err;
    // The simulated machine bounds by its own CPUs, not the host's.
    auto sim = run("groups assign streamer --cpus 0-4194304 --source sim");
    EXPECT_EQ(sim.status, 2) << sim.err;
    EXPECT_NE(sim.err.find("out of range"), std::string::npos) << sim.err;
}

TEST(RdtCli, HostileGroupNamesFailAtOnceAndTouchNothing)
{
    rdt::test::TempTree t("resctrl.full");
    std::filesystem::create_directories(t.dir() + "/tmp/x");
    std::ofstream(t.dir() + "/tmp/x/schemata") << "L3:0=1\n";
    const std::string src = " --source resctrl:" + t.root();
    auto del = run("groups delete ../../tmp/x" + src);
    EXPECT_EQ(del.status, 2) << del.err;
    EXPECT_NE(del.err.find("'..' components are not allowed"), std::string::npos) << del.err;
    // ../tmp/x is the sentinel directory beside the tree: exactly what a path escape would reach.
    EXPECT_EQ(run("groups delete ../tmp/x" + src).status, 2);
    EXPECT_EQ(run("alloc set --group ../tmp/x L3:0=f" + src).status, 2);
    auto set = run("alloc set --group ../.. L3:0=f" + src);
    EXPECT_EQ(set.status, 2) << set.err;
    EXPECT_NE(set.err.find("group path '../..' refused"), std::string::npos) << set.err;
    auto def = run("groups create default" + src);
    EXPECT_EQ(def.status, 2) << def.err;
    EXPECT_NE(def.err.find("'default' names the root group"), std::string::npos) << def.err;
    EXPECT_TRUE(std::filesystem::is_directory(t.dir() + "/tmp/x"));
    EXPECT_EQ(t.read("../tmp/x/schemata"), "L3:0=1\n");
    EXPECT_FALSE(std::filesystem::exists(t.root() + "/default"));
}

TEST(RdtCli, MissingTreeIsUnavailable)
{
    auto r = run("monitor --source resctrl:/nonexistent/resctrl --duration 1");
    EXPECT_EQ(r.status, 3);
    EXPECT_NE(r.err.find("cannot open resctrl at /nonexistent/resctrl"), std::string::npos) << r.err;
}

TEST(RdtCli, SimMsrRefusesPidsAndMonitors)
{
    auto pids = run("groups assign victim --pids 1 --source sim-msr");
    EXPECT_EQ(pids.status, 3);
    EXPECT_NE(pids.err.find("per logical processor"), std::string::npos) << pids.err;
    auto m = run("monitor --source sim-msr --duration 3 --csv --at 1:streamer:L3:0=3");
    EXPECT_EQ(m.status, 0) << m.err;
    std::string header;
    auto rows = parseCsv(m.out, header);
    EXPECT_EQ(rows.size(), 9u); // default, streamer, victim x 1 domain x 3 intervals
}

// Issue 23's done-when: info, alloc show and monitor on each vendor fixture print the vendor's units.
TEST(RdtCli, VendorFixturesPrintTheirUnits)
{
    {
        rdt::test::TempTree t("amd.bmec");
        const std::string src = " --source resctrl:" + t.root();
        auto info = run("info" + src);
        EXPECT_EQ(info.status, 0) << info.err;
        EXPECT_NE(info.out.find("MB      multiples of 1/8 GB/s, 0..2048, 2048 = unlimited (AMD)"), std::string::npos)
            << info.out;
        EXPECT_NE(info.out.find("SMBA    multiples of 1/8 GB/s"), std::string::npos) << info.out;
        EXPECT_NE(info.out.find("0x33 counts local_reads, remote_reads"), std::string::npos) << info.out;
        EXPECT_EQ(info.out.find("CPUID"), std::string::npos); // the source's capabilities, not this machine's CPUID
        auto show = run("alloc show" + src);
        EXPECT_EQ(show.status, 0) << show.err;
        EXPECT_NE(show.out.find("(unlimited, 2 GB/s, unlimited, unlimited)"), std::string::npos) << show.out;
        EXPECT_NE(show.out.find("(unlimited, 8 GB/s, unlimited, unlimited)"), std::string::npos) << show.out;
        // A percentage is refused on AMD before anything is written... and a GB/s value lands as 1/8 steps.
        auto pct = run("alloc set --group p0 'MB:0=50%'" + src);
        EXPECT_NE(pct.status, 0);
        auto mon = run("monitor --duration 1 --interval 500 --csv" + src);
        EXPECT_EQ(mon.status, 0) << mon.err;
    }
    {
        rdt::test::TempTree t("amd.abmc");
        const std::string src = " --source resctrl:" + t.root();
        auto info = run("info" + src);
        EXPECT_NE(info.out.find("free MBM counters: 0=29 1=29 2=30 3=29 (of 32 per domain)"), std::string::npos)
            << info.out;
        EXPECT_NE(info.out.find("io_alloc on L3: enabled"), std::string::npos) << info.out;
        EXPECT_NE(info.out.find("control groups: at most 15"), std::string::npos) << info.out;
        auto mon = run("monitor --duration 1 --interval 500" + src);
        EXPECT_EQ(mon.status, 0) << mon.err;
        EXPECT_NE(mon.err.find("free MBM counters"), std::string::npos) << mon.err;
        auto assign = run("groups counter-assign p0 --event mbm_total_bytes --domain 2" + src);
        EXPECT_EQ(assign.status, 0) << assign.err;
        EXPECT_EQ(t.read("p0/mbm_L3_assignments"), "mbm_total_bytes:2=e\n");
        auto unassign = run("groups counter-unassign p0/mon_groups/m1 --event mbm_local_bytes" + src);
        EXPECT_EQ(unassign.status, 0) << unassign.err;
        EXPECT_EQ(t.read("p0/mon_groups/m1/mbm_L3_assignments"), "mbm_local_bytes:*=_\n");
    }
    {
        // The simulated Genoa-like EPYC: the real resctrl backend reads its kernel-dialect files.
        const std::string src = " --source sim --preset epyc-genoa";
        auto info = run("info" + src);
        EXPECT_EQ(info.status, 0) << info.err;
        EXPECT_NE(info.out.find("MB      multiples of 1/8 GB/s, 0..2048, 2048 = unlimited (AMD)"), std::string::npos)
            << info.out;
        EXPECT_NE(info.out.find("sparse yes"), std::string::npos) << info.out;
        EXPECT_NE(info.out.find("domains 4"), std::string::npos) << "one L3 domain per CCX: " << info.out;
        EXPECT_NE(info.out.find("free MBM counters: 2 in each of 4 domains (of 8 per domain)"), std::string::npos)
            << info.out;
        EXPECT_NE(info.err.find("SIMULATED"), std::string::npos) << info.err;
        auto show = run("alloc show" + src);
        EXPECT_EQ(show.status, 0) << show.err;
        EXPECT_NE(show.out.find("MB:0=2048;1=2048;2=2048;3=2048  (unlimited, unlimited, unlimited, unlimited)"),
            std::string::npos)
            << show.out;
        auto set = run("alloc set --group streamer 'MB:1=2GB/s' 'L3:0=f00f'" + src);
        EXPECT_EQ(set.status, 0) << set.err;
        EXPECT_NE(
            set.out.find("MB:0=2048;1=16;2=2048;3=2048  (unlimited, 2 GB/s, unlimited, unlimited)"), std::string::npos)
            << set.out;
        EXPECT_NE(set.out.find("L3:0=f00f"), std::string::npos) << "a sparse mask is accepted: " << set.out;
        auto pct = run("alloc set --group streamer 'MB:0=50%'" + src);
        EXPECT_EQ(pct.status, 2);
        EXPECT_NE(pct.err.find("give the value in GB/s"), std::string::npos) << pct.err;
        auto mon = run("monitor --duration 2 --interval 1000 --csv --at 1:streamer:MB:0=2GB/s" + src);
        EXPECT_EQ(mon.status, 0) << mon.err;
        std::string header;
        auto rows = parseCsv(mon.out, header);
        EXPECT_EQ(rows.size(), 24u); // default, streamer, victim x 4 domains x 2 intervals
        bool seen = false;
        for (const auto& r : rows)
            if (r.group == "streamer" && r.domain == 0 && r.t > 1.5) { // after the 2 GB/s limit at 1 s
                EXPECT_NEAR(r.total, 2e9, 0.2e9);
                seen = true;
            }
        EXPECT_TRUE(seen) << mon.out;
    }
    {
        // The simulated Ice Lake-SP in SNC-2: mon_sub_L3_YY per node, RMIDs divided, read by the real backend.
        const std::string src = " --source sim --preset icx-8351n-snc2";
        auto info = run("info" + src);
        EXPECT_EQ(info.status, 0) << info.err;
        EXPECT_NE(info.out.find("SNC: 2 sub-NUMA nodes per L3 (L3 0 -> nodes 0,1)"), std::string::npos) << info.out;
        EXPECT_NE(info.out.find("monitoring (L3_MON): 144 RMIDs"), std::string::npos) << info.out;
        EXPECT_NE(info.out.find("percent of peak bandwidth"), std::string::npos) << info.out;
        auto mon = run("monitor --duration 1 --csv" + src);
        EXPECT_EQ(mon.status, 0) << mon.err;
    }
    {
        rdt::test::TempTree t("intel.snc");
        auto info = run("info --source resctrl:" + t.root());
        EXPECT_NE(info.out.find("percent of peak bandwidth, 10..100 in steps of 10"), std::string::npos) << info.out;
        EXPECT_NE(info.out.find("SNC: 2 sub-NUMA nodes per L3"), std::string::npos) << info.out;
        auto show = run("alloc show --source resctrl:" + t.root());
        EXPECT_NE(show.out.find("(50 %, 50 %)"), std::string::npos) << show.out;
    }
    {
        rdt::test::TempTree t("intel.perfpkg");
        auto info = run("info --source resctrl:" + t.root());
        EXPECT_NE(info.out.find("MiB/s target"), std::string::npos) << info.out;
        EXPECT_NE(info.out.find("PERF_PKG_MON: 128 RMIDs"), std::string::npos) << info.out;
        auto show = run("alloc show --source resctrl:" + t.root());
        EXPECT_NE(show.out.find("(2048 MiB/s, 2048 MiB/s)"), std::string::npos) << show.out;
        EXPECT_NE(show.out.find("(unlimited, unlimited)"), std::string::npos) << show.out;
    }
}

namespace {
/// The "layout:" block of a command's output (its resource lines, without the heading).
std::string layoutBlock(const std::string& text)
{
    const auto start = text.find("layout:\n");
    if (start == std::string::npos) return {};
    std::istringstream in(text.substr(start + 8));
    std::string block, line;
    while (std::getline(in, line) && line.rfind("  ", 0) == 0)
        block += line + "\n";
    return block;
}
} // namespace

// `alloc show` on a live source and `replay` of a session recorded from it print the same layout: the engine's one
// rule over the live machine and over what the session recorded (ways, sizes, bandwidth units).
TEST(RdtCli, ReplayShowsTheLayoutTheLiveSourceShowed)
{
    for (const char* preset : { "skx-6154", "epyc-genoa", "icx-8351n-snc2" }) {
        const std::string session = "/tmp/rdt-cli-layout-" + std::to_string(::getpid()) + "-" + preset + ".rdts";
        std::remove(session.c_str());
        const std::string source = std::string("--source sim --preset ") + preset;
        const auto live = run("alloc show " + source);
        ASSERT_EQ(live.status, 0) << live.err;
        const auto shown = layoutBlock(live.out);
        ASSERT_FALSE(shown.empty()) << live.out;
        EXPECT_NE(shown.find(" ways (CPUID."), std::string::npos) << shown;
        const auto rec = run("record -o " + session + " " + source + " --duration 1");
        ASSERT_EQ(rec.status, 0) << rec.err;
        const auto replay = run("replay " + session + " --speed max --csv");
        ASSERT_EQ(replay.status, 0) << replay.err;
        EXPECT_EQ(layoutBlock(replay.err), shown) << preset << "\nlive:\n" << live.out << "\nreplay:\n" << replay.err;
        std::remove(session.c_str());
    }
    const auto amd = run("alloc show --source sim --preset epyc-genoa");
    EXPECT_NE(layoutBlock(amd.out).find("  MB: 1/8 GB/s 0..2048, 2048 = unlimited"), std::string::npos) << amd.out;
    EXPECT_NE(layoutBlock(amd.out).find("  L3: 16-bit masks, 32.00 MiB (2.00 MiB per bit), 16 ways (CPUID.8000001DH)"),
        std::string::npos)
        << amd.out;
}

// A simulator option on a source that would ignore it is refused, never dropped; `auto` falling back to the simulator
// runs the preset asked for (issue: `monitor --preset epyc-genoa` silently gave the default Skylake).
TEST(RdtCli, PresetIsRunOrRefusedNeverIgnored)
{
    rdt::test::TempTree tree("resctrl.full");
    const auto refused = run("alloc show --source resctrl:" + tree.root() + " --preset epyc-genoa");
    EXPECT_EQ(refused.status, 1) << refused.out;
    EXPECT_NE(refused.err.find("--preset applies to the simulated machine only"), std::string::npos) << refused.err;
    const auto scenario = run("monitor --source resctrl:" + tree.root() + " --scenario mba --duration 1");
    EXPECT_NE(scenario.status, 0);
    EXPECT_NE(scenario.err.find("--scenario applies"), std::string::npos) << scenario.err;
    const auto info = run("info --preset epyc-genoa");
    EXPECT_NE(info.status, 0);
    EXPECT_NE(info.err.find("--source"), std::string::npos) << info.err;
}

// Issue 43's done-when for resctrl trees with files missing (docs/RESCTRL.md "Trees with files missing"): the RMID
// count is unknown naming the file, the inferred mask length names where it came from, the warnings are printed, and
// monitor on a tree without mon_data says why instead of printing empty tables.
TEST(RdtCli, TreesWithInfoFilesMissingSayUnknownAndWhy)
{
    rdt::test::TempTree t("resctrl.full");
    std::filesystem::remove(t.root() + "/info/L3_MON/num_rmids");
    auto info = run("info --source resctrl:" + t.root());
    EXPECT_EQ(info.status, 0) << info.err;
    EXPECT_NE(info.out.find("monitoring (L3_MON): unknown (info/L3_MON/num_rmids is missing) RMIDs"), std::string::npos)
        << info.out;
    EXPECT_EQ(info.out.find(" 0 RMIDs"), std::string::npos) << info.out;

    std::filesystem::remove(t.root() + "/info/L3/cbm_mask");
    std::filesystem::remove_all(t.root() + "/mon_data");
    auto alloc = run("alloc show --source resctrl:" + t.root());
    EXPECT_EQ(alloc.status, 0) << alloc.err;
    EXPECT_NE(
        alloc.out.find("cbm_mask fffff (inferred from the root schemata's L3 masks, info/L3/cbm_mask is missing)"),
        std::string::npos)
        << alloc.out;
    EXPECT_NE(alloc.err.find("warning: info/L3/cbm_mask is missing or unreadable"), std::string::npos) << alloc.err;
    EXPECT_NE(alloc.err.find("warning: mon_data is missing"), std::string::npos) << alloc.err;

    auto mon = run("monitor --duration 1 --source resctrl:" + t.root());
    EXPECT_EQ(mon.status, 3) << mon.err;
    EXPECT_NE(mon.err.find("mon_data holds no mon_L3_XX domain"), std::string::npos) << mon.err;
    EXPECT_EQ(mon.out, ""); // no empty tables
}

// One missing counter file blanks its own column of its own domain, not the row: the LLC value of domain 0 is "-"
// (unknown, flagged U) while its bandwidth and the other domains' values are printed.
TEST(RdtCli, AMissingCounterFileBlanksOnlyItsColumn)
{
    rdt::test::TempTree t("resctrl.full");
    std::filesystem::remove(t.root() + "/mon_data/mon_L3_00/llc_occupancy");
    auto mon = run("monitor --duration 1 --interval 500 --source resctrl:" + t.root());
    EXPECT_EQ(mon.status, 0) << mon.err;
    std::istringstream lines(mon.out);
    int checked = 0;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream cells(line);
        std::string group, domain, llc, mbl, mbr, mbt, flags;
        if (!(cells >> group >> domain >> llc >> mbl >> mbr >> mbt >> flags) || group != "default") continue;
        if (domain == "0") {
            EXPECT_EQ(llc, "-") << line;
            EXPECT_NE(mbt, "-") << line;
            EXPECT_NE(flags.find('U'), std::string::npos) << line;
        } else {
            EXPECT_NE(llc, "-") << line;
        }
        ++checked;
    }
    EXPECT_GE(checked, 4) << mon.out;
}

// Issue #50's done-when: resctrl beyond x86 on the simulated kernel's dialects (docs/RESCTRL.md "Dialects").
TEST(DialectsCli, MpamInfoListsPortionsAndMbAndSaysWhyThereIsNoLocalBandwidth)
{
    const auto r = run("info --source sim --preset arm-mpam");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("L3      cbm_mask ffff (16 portions)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("MB      percent of peak bandwidth, 2..100"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("local bandwidth: none"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("cannot distinguish local traffic from global"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("SIMULATED"), std::string::npos) << r.err;
    // The monitor shows the local and remote columns as unknown, never 0.
    const auto m = run("monitor --source sim --preset arm-mpam --duration 1 --csv");
    ASSERT_EQ(m.status, 0) << m.err;
    std::istringstream lines(m.out);
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    EXPECT_EQ(line, "time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps");
    unsigned rows = 0;
    for (; std::getline(lines, line); ++rows)
        EXPECT_EQ(line.back(), ',') << "mbm_local_bps must be empty (unknown): " << line;
    EXPECT_GT(rows, 0u) << m.out;
}

TEST(DialectsCli, AllocSetRefusesAnMbMinOverBudgetBeforeWriting)
{
    const auto r = run("alloc --source sim --preset riscv-cbqri set --group victim MB_MIN:0=100");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find("over the budget of 819 blocks"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at most 62 fit"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("rejected before writing"), std::string::npos) << r.out;
    const auto ok = run("alloc --source sim --preset riscv-cbqri set --group victim MB_MIN:0=62 MB_WGHT:0=0");
    EXPECT_EQ(ok.status, 0) << ok.err;
    // The group's opt is 511: a max of 100 below it breaks min <= opt <= max.
    const auto triple = run("alloc --source sim --preset xeon-mbregion set --group victim MB_REGION0_MAX:0=100");
    EXPECT_NE(triple.status, 0);
    EXPECT_NE(triple.err.find("min <= opt <= max"), std::string::npos) << triple.err;
}

TEST(DialectsCli, SessionsOnEachPresetReplayWithTheSameUnits)
{
    char dirTempl[] = "/tmp/rdt-dialects-XXXXXX";
    const std::string dir = ::mkdtemp(dirTempl);
    for (const char* preset : { "arm-mpam", "riscv-cbqri", "xeon-mbregion" }) {
        SCOPED_TRACE(preset);
        const std::string file = dir + "/" + preset + ".rdts";
        const auto live = run(std::string("alloc --source sim --preset ") + preset + " show");
        ASSERT_EQ(live.status, 0) << live.err;
        const auto rec
            = run("record -o " + file + " --source sim --preset " + preset + " --duration 0.3 --interval 100");
        ASSERT_EQ(rec.status, 0) << rec.err;
        const auto replay = run("replay " + file);
        ASSERT_EQ(replay.status, 0) << replay.err;
        // Every bandwidth layout line of the live machine ("  MB_MIN: reserved blocks ...") appears in the replay's
        // recorded layout (stderr; the order may differ).
        std::istringstream lines(live.out);
        unsigned checked = 0;
        for (std::string line; std::getline(lines, line);)
            if (line.rfind("  MB", 0) == 0 && line.find('=') == std::string::npos) {
                EXPECT_NE(replay.err.find(line + "\n"), std::string::npos) << line << "\n" << replay.err;
                ++checked;
            }
        EXPECT_GT(checked, 0u) << live.out;
        std::remove(file.c_str());
    }
    ::rmdir(dir.c_str());
}

// SPDX-License-Identifier: GPL-3.0-or-later
// PERF_PKG_MON telemetry through the real rdtscope-cli: `monitor` (table and --csv --telemetry) on the intel.perfpkg
// fixture and on the simulated icx-8351n-snc2 preset, and `record` + `replay --csv --telemetry` round trip.
#include "TestTree.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <sys/wait.h>

namespace {
struct Run {
    int status = -1;
    std::string out, err;
};

Run run(const std::string& args)
{
    char errName[] = "/tmp/rdt-cli-err-XXXXXX";
    const int fd = ::mkstemp(errName);
    if (fd >= 0) ::close(fd);
    Run r;
    FILE* p = ::popen((std::string(RDTSCOPE_CLI) + " " + args + " 2>" + errName).c_str(), "r");
    if (!p) return r;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        r.out.append(buf, n);
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (FILE* e = std::fopen(errName, "r")) {
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, e)) > 0;)
            r.err.append(buf, n);
        std::fclose(e);
    }
    std::remove(errName);
    return r;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}
} // namespace

TEST(TelemetryCli, MonitorShowsTheFixturesEnergyAndActivity)
{
    rdt::test::TempTree t("intel.perfpkg");
    auto table = run("monitor --duration 1 --source resctrl:" + t.root());
    EXPECT_EQ(table.status, 0) << table.err;
    EXPECT_NE(table.out.find("GROUP                        PACKAGE EVENT"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("1234.500 J"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("57.250 F"), std::string::npos) << table.out;
    EXPECT_NE(table.err.find("monitor groups limited to 128"), std::string::npos) << table.err;
    auto csv = run("monitor --duration 1 --csv --telemetry --source resctrl:" + t.root());
    EXPECT_EQ(csv.status, 0) << csv.err;
    const auto l = lines(csv.out);
    ASSERT_GE(l.size(), 2u);
    EXPECT_EQ(l[0], "time_s,group,package,event,value,unit,per_second");
    EXPECT_NE(csv.out.find(",p0,0,core_energy,1234.500000,J,0.000000"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find(",p0,1,uops_retired,7000022,,0.000"), std::string::npos) << csv.out;
    // A machine without PERF_PKG_MON says so instead of printing an empty CSV.
    rdt::test::TempTree full("resctrl.full");
    auto none = run("monitor --duration 1 --csv --telemetry --source resctrl:" + full.root());
    EXPECT_NE(none.status, 0);
    EXPECT_NE(none.err.find("no PERF_PKG_MON telemetry"), std::string::npos) << none.err;
}

TEST(TelemetryCli, SimulatedPresetRecordsAndReplaysPlausibleEnergy)
{
    const std::string src = " --source sim --scenario noisy-neighbour --preset icx-8351n-snc2";
    auto csv = run("monitor --duration 3 --csv --telemetry" + src);
    EXPECT_EQ(csv.status, 0) << csv.err;
    // The streamer's cores use a few watts in package 0 once the first interval has passed.
    double watts = -1;
    for (const auto& line : lines(csv.out)) {
        double t = 0, v = 0, rate = 0;
        int pkg = 0;
        char unit[4] = {};
        if (std::sscanf(line.c_str(), "%lf,streamer,%d,core_energy,%lf,%3[^,],%lf", &t, &pkg, &v, unit, &rate) == 5
            && pkg == 0 && t >= 2.0)
            watts = rate;
    }
    EXPECT_GT(watts, 0.5) << csv.out;
    EXPECT_LT(watts, 50.0) << csv.out;
    EXPECT_NE(csv.err.find("simulated"), std::string::npos) << csv.err;

    char dir[] = "/tmp/rdt-tel-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    const std::string file = std::string(dir) + "/tel.rdts";
    auto rec = run("record -o " + file + " --duration 2" + src);
    ASSERT_EQ(rec.status, 0) << rec.err;
    auto replay = run("replay --csv --telemetry " + file);
    EXPECT_EQ(replay.status, 0) << replay.err;
    const auto l = lines(replay.out);
    ASSERT_GE(l.size(), 2u);
    EXPECT_EQ(l[0], "time_s,group,package,event,value,unit,per_second");
    EXPECT_NE(replay.out.find(",streamer,0,core_energy,"), std::string::npos) << replay.out;
    auto table = run("replay " + file);
    EXPECT_NE(table.out.find("core_energy"), std::string::npos);
    std::remove(file.c_str());
    ::rmdir(dir);
}

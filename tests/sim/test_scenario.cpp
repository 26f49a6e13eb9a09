// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files: the format, the built-in lessons, timed steps.
#include "SimTestUtil.h"

#include "sim/Scenario.h"
#include "sim/SimRunner.h"
#include "sim/Simulation.h"
#include "sim/Workload.h"

#include <cerrno>
#include <chrono>
#include <clocale>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

using namespace rdt;
using namespace rdt::sim;
using namespace rdt::sim::test;

TEST(Scenario, BuiltinsParseAndStart)
{
    auto names = builtinScenarioNames();
    for (const char* n : { "noisy-neighbour", "cdp", "mba", "counter-wrap" })
        EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
    for (const auto& n : names) {
        auto sc = loadScenario(n);
        ASSERT_TRUE(sc.ok()) << sc.error().toString();
        EXPECT_FALSE(sc->title.empty()) << n;
        SimulationOptions o;
        o.sampling = 4096; // fast: these tests check wiring, the fidelity tests check the model
        auto sim = Simulation::create(*sc, o);
        ASSERT_TRUE(sim.ok()) << n << ": " << sim.error().toString();
        (*sim)->advance(50 * kMs);
        EXPECT_FALSE((*sim)->machine().threads().empty()) << n;
    }
}

TEST(Scenario, NoisyNeighbourLesson)
{
    auto sc = loadScenario("noisy-neighbour");
    ASSERT_TRUE(sc.ok());
    EXPECT_EQ(sc->cores, 8u);
    EXPECT_EQ(sc->preset, "skx-6154");
    SimulationOptions o;
    o.sampling = 2048;
    auto sim = Simulation::create(*sc, o).value();
    auto& fs = sim->resctrl();
    EXPECT_TRUE(fs.isDirectory("victim"));
    EXPECT_TRUE(fs.isDirectory("streamer"));
    EXPECT_EQ(*fs.read("victim/tasks"), "1001\n1002\n");
    EXPECT_EQ(*fs.read("streamer/tasks"), "1003\n1004\n");
    auto occ
        = [&](const char* g) { return std::stoull(*fs.read(std::string(g) + "/mon_data/mon_L3_00/llc_occupancy")); };
    sim->advance(19'000 * kMs);
    const auto victimShared = occ("victim");
    EXPECT_EQ(*fs.read("streamer/schemata"), "    L3:0=7ff\n    MB:0=100\n");
    sim->advance(2'000 * kMs); // the 20 s steps fence the streamer into 2 ways
    EXPECT_EQ(*fs.read("streamer/schemata"), "    L3:0=3\n    MB:0=100\n");
    const auto streamerFenced = occ("streamer");
    sim->advance(18'000 * kMs);
    const auto victimFenced = occ("victim");
    EXPECT_GT(double(victimFenced), 1.3 * double(victimShared)) << "CAT protects the victim's lines";
    // The streamer's old lines stay until something evicts them (lines are not re-tagged), but it cannot grow.
    EXPECT_LE(occ("streamer"), streamerFenced);
    bool noted = false;
    for (const auto& e : sim->events())
        noted |= e.note && e.timeNs == 20'000 * kMs;
    EXPECT_TRUE(noted);
}

TEST(Scenario, FormatErrorsNameTheLine)
{
    auto bad = [](const std::string& text) { return parseScenario(text, "t").error().message; };
    EXPECT_NE(bad("mkdir a\nmkdri b\n").find("t:2: unknown command 'mkdri'"), std::string::npos);
    EXPECT_NE(bad("at soon write a/schemata L3:0=1\n").find("t:1:"), std::string::npos);
    EXPECT_NE(bad("thread x cpu=0 ws=12Q\n").find("t:1: bad size unit"), std::string::npos);
    EXPECT_NE(bad("machine cores=eight\n").find("not a number"), std::string::npos);
    EXPECT_NE(bad("mount fast\n").find("unknown mount option"), std::string::npos);
    EXPECT_EQ(loadScenario("no-such-scenario").error().code, ENOENT);
}

TEST(Scenario, TimedStepsRecordKernelMessages)
{
    const std::string text = "machine cores=2 sampling=1024\n"
                             "mkdir g\n"
                             "thread t group=g cpu=1 pattern=stream ws=64M\n"
                             "at 10ms write g/schemata MB:0=5\n"
                             "at 10ms note try a valid value\n"
                             "at 20ms write g/schemata MB:0=25\n"
                             "at 30ms write g/schemata L3:0=7\\c\n"
                             "at 40ms msr cpu=0 0xC8F 0x100000000000\n"
                             "at 50ms move t cpu=0\n";
    auto sc = parseScenario(text, "inline");
    ASSERT_TRUE(sc.ok()) << sc.error().toString();
    auto sim = Simulation::create(*sc).value();
    sim->advance(60 * kMs);
    auto ev = sim->events();
    auto find = [&](const std::string& s) {
        for (const auto& e : ev)
            if (e.text.find(s) != std::string::npos) return e;
        return ScenarioEvent { 0, "", true, false };
    };
    EXPECT_FALSE(find("MB value 5 out of range [10,100]").ok);
    EXPECT_EQ(find("MB value 5").timeNs, 10 * kMs);
    EXPECT_TRUE(find("try a valid value").note);
    EXPECT_EQ(*sim->resctrl().read("g/schemata"), "    L3:0=7ff\n    MB:0=30\n");
    EXPECT_FALSE(find("no trailing newline").ok);
    EXPECT_FALSE(find("#GP(0)").ok);
    EXPECT_EQ(sim->machine().thread(1001)->cpu, 0u);
    EXPECT_EQ(expandWriteText("L3:0=f\\nMB:0=50"), "L3:0=f\nMB:0=50\n");
    EXPECT_EQ(expandWriteText("L3:0=f\\c"), "L3:0=f");
}

TEST(Scenario, LoadsFromFileWithRelativeCpuidDump)
{
    const auto dir = std::filesystem::temp_directory_path() / "rdtscope-scn-test";
    std::filesystem::create_directories(dir);
    {
        std::ofstream dump(dir / "cpu.txt");
        const SimCpuid icx = presetCpuid("icx-8351n").value();
        for (const auto& [key, r] : icx.leaves()) {
            char line[128];
            std::snprintf(line, sizeof line, "CPUID %08X: %08X-%08X-%08X-%08X [SL %02X]\n", key.first, r.eax, r.ebx,
                r.ecx, r.edx, key.second);
            dump << line;
        }
        std::ofstream f(dir / "mine.scn");
        f << "name mine\nmachine cpuid=cpu.txt cores=2 sampling=1024\nmkdir a\n";
    }
    auto sc = loadScenario((dir / "mine.scn").string());
    ASSERT_TRUE(sc.ok()) << sc.error().toString();
    auto sim = Simulation::create(*sc);
    ASSERT_TRUE(sim.ok()) << sim.error().toString();
    EXPECT_EQ(*(*sim)->resctrl().read("info/L3/cbm_mask"), "fff\n");
    // --sim-cpuid overrides the scenario's machine.
    SimulationOptions o;
    o.preset = "clx-5215";
    auto sim2 = Simulation::create(*loadScenario("noisy-neighbour"), o);
    ASSERT_TRUE(sim2.ok());
    EXPECT_EQ(*(*sim2)->resctrl().read("info/L3_MON/num_rmids"), "80\n");
    std::filesystem::remove_all(dir);
}

TEST(SimRunner, AdvancesWithWallClock)
{
    auto m = makeMachine();
    {
        SimRunner runner(*m, 4.0, 5'000'000);
        std::this_thread::sleep_for(std::chrono::milliseconds(120));
    }
    const auto t = m->nowNs();
    EXPECT_GE(t, 300 * kMs); // 4x speed over ~120 ms of wall time
    EXPECT_LE(t, 700 * kMs);
}

// Found by `./dev fuzz scenario` (tests/data/fuzz-regressions/fuzz_scenario): `ws=` with a value beyond 2^64 bytes
// was converted to an integer anyway (undefined behaviour); sizes, times, rates and settings now have bounds,
// refuse NaN and infinities, and read "1.5" the same in every locale.
TEST(ScenarioLimits, HugeNanAndInfiniteNumbersAreRefusedWithAReason)
{
    for (const char* size : { "1e300G", "5.8e84", "nan", "inf", "-1M", "2048T", "1.1e6G" }) {
        auto s = parseSize(size);
        EXPECT_FALSE(s.ok()) << size << " gave " << (s ? *s : 0);
    }
    EXPECT_EQ(parseSize("1024G").value(), 1024ull << 30);
    EXPECT_EQ(parseSize("1.5K").value(), 1536u);
    for (const char* time : { "1e300s", "nan", "inf", "-2s", "101e9m" }) {
        auto t = parseDuration(time);
        EXPECT_FALSE(t.ok()) << time << " gave " << (t ? *t : 0);
    }
    EXPECT_EQ(parseDuration("1.5s").value(), 1'500'000'000u);
    auto sc = parseScenario("mkdir a\nthread t group=a cpu=0 pattern=stream ws=1e300G\n", "huge");
    ASSERT_FALSE(sc.ok());
    EXPECT_NE(sc.error().message.find("huge:2"), std::string::npos) << sc.error().message;
    for (const char* bad : { "compute=nan", "write=inf", "rate=1e300G", "mlp=nan" }) {
        auto r = parseScenario(std::string("thread t cpu=0 pattern=stream ws=1M ") + bad + "\n", "bad");
        EXPECT_FALSE(r.ok()) << bad;
    }
}

TEST(ScenarioLimits, NumbersIgnoreTheLocale)
{
    // A locale whose decimal point is a comma, as the GUI may run under (it calls setlocale): "1.5" must still be
    // one and a half. The locale is compiled into a temp dir with localedef, so the test needs no installed locales.
    char tmpl[] = "/tmp/rdtscope-locale-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl;
    struct Cleanup {
        std::string dir;
        ~Cleanup() { std::filesystem::remove_all(dir); }
    } cleanup { dir };
    const std::string cmd = "localedef -i de_DE -f UTF-8 " + dir + "/de_DE.UTF-8 >/dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) GTEST_SKIP() << "localedef could not build de_DE.UTF-8 (no locale sources)";
    ::setenv("LOCPATH", dir.c_str(), 1);
    const std::string saved = std::setlocale(LC_NUMERIC, nullptr);
    ASSERT_NE(std::setlocale(LC_NUMERIC, "de_DE.UTF-8"), nullptr);
    EXPECT_EQ(std::strtod("1.5", nullptr), 1.0) << "the comma locale is not in effect: the check below proves nothing";
    const auto duration = parseDuration("1.5s");
    const auto size = parseSize("1.5K");
    std::setlocale(LC_NUMERIC, saved.c_str());
    ::unsetenv("LOCPATH");
    EXPECT_EQ(duration.value(), 1'500'000'000u);
    EXPECT_EQ(size.value(), 1536u);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files: the format, the built-in lessons, timed steps.
#include "SimTestUtil.h"

#include "sim/Scenario.h"
#include "sim/SimRunner.h"
#include "sim/Simulation.h"

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

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

// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli sim: the simulated machine on its own. Lists presets and scenarios, describes the machine a scenario
// builds (from a preset or any CPUID dump with --sim-cpuid), and runs a scenario printing, per simulated second,
// each resctrl group's LLC occupancy and memory bandwidth as the emulated kernel reports them, plus the lesson's
// notes and rejected commands. Everything printed is simulated and says so.
#include "Commands.h"
#include "Options.h"
#include "core/Time.h"
#include "sim/Scenario.h"
#include "sim/SimRunner.h"
#include "sim/Simulation.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>

namespace rdt::cli {

namespace {

std::vector<std::string> groupsOf(sim::SimResctrlFs& fs)
{
    std::vector<std::string> out { "" };
    auto addMon = [&](const std::string& prefix) {
        auto mons = fs.list(prefix + "mon_groups");
        if (mons)
            for (const auto& m : *mons)
                out.push_back(prefix + "mon_groups/" + m);
    };
    addMon("");
    auto root = fs.list("");
    if (root)
        for (const auto& e : *root)
            if (e != "info" && e != "mon_data" && e != "mon_groups" && fs.isDirectory(e)) {
                out.push_back(e);
                addMon(e + "/");
            }
    return out;
}

std::uint64_t readNumber(sim::SimResctrlFs& fs, const std::string& path, bool& ok)
{
    auto r = fs.read(path);
    ok = r && !r->empty() && r->front() >= '0' && r->front() <= '9';
    return ok ? std::strtoull(r->c_str(), nullptr, 10) : 0;
}

struct SimOptions {
    bool list = false, describe = false, realtime = false;
    std::string scenario, simCpuid, preset;
    std::optional<double> cores, sampling, seconds;
    double speed = 1;
};

int runSim(const SimOptions& o)
{
    if (o.list) {
        std::printf("presets (real CPUs' CPUID, simulated):\n");
        for (const auto& p : sim::presets())
            std::printf("  %-12s %s  [%s]%s\n", p.id.c_str(), p.name.c_str(), p.source.c_str(),
                p.id == sim::defaultPresetId() ? "  (default)" : "");
        std::printf("scenarios (built in; any file in the same format works with --scenario FILE):\n");
        for (const auto& n : sim::builtinScenarioNames()) {
            auto sc = sim::loadScenario(n);
            std::printf("  %-16s %s\n", n.c_str(), sc ? sc->title.c_str() : sc.error().message.c_str());
        }
        return ExitOk;
    }
    auto scenario = sim::loadScenario(o.scenario.empty() ? sim::defaultScenarioName() : o.scenario);
    if (!scenario) {
        std::fprintf(stderr, "rdtscope-cli sim: %s\n", scenario.error().toString().c_str());
        return ExitFailure;
    }
    sim::SimulationOptions opts;
    opts.cpuidFile = o.simCpuid;
    opts.preset = o.preset;
    opts.cores = o.cores ? int(*o.cores) : -1;
    opts.sampling = o.sampling ? int(*o.sampling) : -1;
    const double seconds = o.seconds.value_or(scenario->durationNs ? double(scenario->durationNs) * 1e-9 : 10.0);
    auto created = sim::Simulation::create(*scenario, opts);
    if (!created) {
        std::fprintf(stderr, "rdtscope-cli sim: %s\n", created.error().toString().c_str());
        return ExitFailure;
    }
    sim::Simulation& s = **created;
    for (const auto& line : s.describe())
        std::printf("# %s\n", line.c_str());
    if (o.describe) {
        std::printf("# groups:");
        for (const auto& g : groupsOf(s.resctrl()))
            std::printf(" %s", g.empty() ? "(default)" : g.c_str());
        std::printf("\n");
        for (const auto& t : s.machine().threads())
            std::printf("# thread %d %-10s cpu %u clos %u rmid %u %s ws %llu\n", t.tid, t.name.c_str(), t.cpu, t.clos,
                t.rmid, sim::patternName(t.spec.pattern), static_cast<unsigned long long>(t.spec.workingSet));
        return ExitOk;
    }
    std::printf("%8s  %-28s %12s %12s %12s\n", "time[s]", "group (simulated)", "llc_occ[MiB]", "mbm_tot[MB/s]",
        "mbm_loc[MB/s]");
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> prev;
    std::size_t seenEvents = 0;
    const auto total = static_cast<std::uint64_t>(seconds * 1e9);
    std::unique_ptr<sim::SimRunner> runner;
    if (o.realtime) runner = std::make_unique<sim::SimRunner>(s.machine(), o.speed);
    const std::uint64_t start = s.machine().nowNs();
    for (std::uint64_t t = 1'000'000'000; t <= total; t += 1'000'000'000) {
        if (runner) {
            while (s.machine().nowNs() < start + t)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        } else {
            s.advance(start + t - s.machine().nowNs());
        }
        for (const auto& e : s.events(seenEvents))
            std::printf("%8.3f  %s %s\n", double(e.timeNs) * 1e-9, e.note ? "note:" : (e.ok ? "did: " : "FAILED:"),
                e.text.c_str());
        seenEvents = s.events().size();
        for (const auto& g : groupsOf(s.resctrl())) {
            const std::string base = (g.empty() ? "" : g + "/") + "mon_data/mon_L3_00/";
            bool okOcc = false, okTot = false, okLoc = false;
            const auto occ = readNumber(s.resctrl(), base + "llc_occupancy", okOcc);
            const auto tot = readNumber(s.resctrl(), base + "mbm_total_bytes", okTot);
            const auto loc = readNumber(s.resctrl(), base + "mbm_local_bytes", okLoc);
            auto& p = prev[g];
            const bool first = p.first == 0 && p.second == 0;
            std::printf("%8.1f  %-28s %12.2f %12s %12s\n", double(t) * 1e-9, g.empty() ? "(default)" : g.c_str(),
                okOcc ? double(occ) / (1 << 20) : -1.0,
                okTot && !first ? std::to_string((tot - p.first) / 1'000'000).c_str() : "-",
                okLoc && !first ? std::to_string((loc - p.second) / 1'000'000).c_str() : "-");
            p = { tot, loc };
        }
    }
    if (runner)
        std::printf("# real-time runner: %.1f%% of one core, %s\n", runner->load() * 100,
            runner->lagging() ? "LAGGING behind real time" : "keeping up");
    return ExitOk;
}

} // namespace

CommandRun defineSim(CLI::App& cmd)
{
    cmd.footer("Everything printed is simulated and says so.");
    auto o = std::make_shared<SimOptions>();
    cmd.add_flag("--list", o->list, "list the CPU presets and the built-in scenarios");
    cmd.add_option("--scenario", o->scenario, "a built-in scenario or a scenario file (default noisy-neighbour)")
        ->type_name("NAME|FILE");
    auto* machine = cmd.add_option_group("machine");
    machine->add_option("--sim-cpuid", o->simCpuid, "simulate the CPU of this CPUID dump")->type_name("FILE");
    machine->add_option("--preset", o->preset, "simulate this preset CPU (see --list)")->type_name("ID");
    machine->require_option(0, 1);
    addNumber(cmd, "--cores", o->cores, { 1, 4096, true }, "N", "cores per socket (default: the scenario's)");
    addNumber(
        cmd, "--sampling", o->sampling, { 1, 1e6, true }, "S", "cache set sampling factor (default: the scenario's)");
    addNumber(cmd, "--seconds", o->seconds, { 0.001, 1e7 }, "N", "simulated seconds to run (default: the scenario's)");
    cmd.add_flag("--describe", o->describe, "print the machine, its groups and threads, and exit");
    cmd.add_flag("--realtime", o->realtime, "run in real time on a runner thread");
    addNumber(cmd, "--speed", o->speed, { 0.01, 1000 }, "X", "times real time, with --realtime (default 1)");
    return [o] { return runSim(*o); };
}

} // namespace rdt::cli

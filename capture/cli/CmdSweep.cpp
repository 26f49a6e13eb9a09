// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli sweep ways|mba --group G: one group's cache ways (or bandwidth cap) stepped down to the minimum, each
// step held and measured, a table or CSV row per step, the knees; the original allocation restored at the end, on
// an error and on SIGINT/SIGTERM (capture/experiment/Sweep.h, docs/EXPERIMENTS.md).
#include "CmdRdtSource.h"
#include "CmdSessionCreate.h"
#include "Commands.h"
#include "core/Csv.h"
#include "core/Time.h"
#include "experiment/Sweep.h"
#include "experiment/SweepRecording.h"
#include "rdt/GroupNames.h"
#include "session/StopSignals.h"

#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <variant>

namespace rdt::cli {

namespace {

struct SweepOptions {
    SourceOptions source;
    std::string kind; ///< "ways" or "mba"
    std::string group;
    std::string victim;
    std::string isolate; ///< comma-separated groups
    bool fromFull = false;
    double settle = 1;
    double measure = 2;
    double intervalMs = 250;
    double tolerancePct = 5;
    bool csv = false;
    bool realtime = false;
    std::optional<std::string> record; ///< session file to record the sweep into (given, even empty: then refused)
    bool force = false;
};

/// A PMU figure for a CSV cell or a table column: empty or "-" when it was not measured (never a made-up 0).
std::string figure(const std::optional<double>& v, double scale, int decimals, bool csv)
{
    if (!v) return csv ? "" : "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, *v * scale);
    return buf;
}

void printStep(const experiment::SweepStep& s, const experiment::SweepSettings& settings, bool csv)
{
    const bool victim = !settings.victim.empty();
    if (csv) {
        std::printf("%u,%llu,%s,%.0f,%.0f,%.0f", s.index, static_cast<unsigned long long>(s.value),
            csvField(s.written).c_str(), s.occupancyBytes, s.totalBps, s.localBps);
        if (victim) std::printf(",%.0f,%.0f", s.victimOccupancyBytes, s.victimTotalBps);
        std::printf(",%s,%s,%s,%s\n", figure(s.ipc, 1, 4, true).c_str(), figure(s.mpki, 1, 4, true).c_str(),
            figure(s.memoryBound, 1, 4, true).c_str(), csvField(s.disturbed).c_str());
    } else {
        std::printf("%4u %6llu  %-22s %12.1f %12.1f %12.1f", s.index, static_cast<unsigned long long>(s.value),
            s.written.c_str(), s.occupancyBytes / 1024.0, s.totalBps / 1e6, s.localBps / 1e6);
        if (victim) std::printf(" %12.1f %12.1f", s.victimOccupancyBytes / 1024.0, s.victimTotalBps / 1e6);
        std::printf(" %6s %7s %7s", figure(s.ipc, 1, 2, false).c_str(), figure(s.mpki, 1, 2, false).c_str(),
            figure(s.memoryBound, 100, 1, false).c_str());
        std::printf("%s%s\n", s.disturbed.empty() ? "" : "  disturbed: ", s.disturbed.c_str());
    }
    std::fflush(stdout);
}

void printHeader(const experiment::SweepSettings& s, bool csv)
{
    const bool ways = s.kind == experiment::SweepKind::Ways;
    const bool victim = !s.victim.empty();
    if (csv) {
        std::printf("step,%s,written,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps%s,ipc,mpki,memory_bound,"
                    "disturbed\n",
            ways ? "ways" : "mb_percent", victim ? ",victim_llc_occupancy_bytes,victim_mbm_total_bps" : "");
        return;
    }
    std::printf("%4s %6s  %-22s %12s %12s %12s", "STEP", ways ? "WAYS" : "MB[%]", "WRITTEN", "LLC[KB]", "MBT[MB/s]",
        "MBL[MB/s]");
    if (victim) std::printf(" %12s %12s", "VICTIM[KB]", "VMBT[MB/s]");
    std::printf(" %6s %7s %7s\n", "IPC", "MPKI", "MEM[%]");
}

void printKnees(const experiment::SweepResult& r, bool csv)
{
    const bool ways = r.settings.kind == experiment::SweepKind::Ways;
    const char* prefix = csv ? "# " : "";
    const std::string unit = ways ? "ways" : "% MB";
    std::printf("%sknee: %s (%s)\n", prefix, r.knees.bandwidth.explain(unit).c_str(),
        ways ? "memory bandwidth, the group's misses" : "memory bandwidth, the group's own throughput");
    std::printf("%soccupancy knee: %s\n", prefix, r.knees.occupancy.explain(unit).c_str());
    if (r.pmu.available)
        std::printf("%spmu: %s's IPC, MPKI (LLC misses per 1000 instructions) and memory-bound share; %s\n", prefix,
            displayGroup(r.settings.group).c_str(), r.pmu.method.c_str());
    else
        std::printf("%spmu: no IPC, MPKI or memory-bound figures: %s\n", prefix, r.pmu.unavailable.c_str());
    if (!r.settings.victim.empty())
        std::printf("%svictim knee: %s (of %s's occupancy)\n", prefix, r.knees.victimOccupancy.explain(unit).c_str(),
            displayGroup(r.settings.victim).c_str());
    std::fflush(stdout);
}

int runSweepCommand(const SweepOptions& o)
{
    experiment::SweepSettings s;
    s.kind = o.kind == "mba" ? experiment::SweepKind::Bandwidth : experiment::SweepKind::Ways;
    s.group = groupPathFromUser(o.group);
    s.victim = o.victim.empty() ? std::string {} : groupPathFromUser(o.victim);
    s.isolate = groupPathsFromList(o.isolate);
    s.fromFull = o.fromFull;
    s.settleNs = secondsToNs(o.settle);
    s.measureNs = secondsToNs(o.measure);
    s.pollNs = static_cast<std::uint64_t>(o.intervalMs * 1e6);
    s.tolerance = o.tolerancePct / 100.0;
    s.paced = o.realtime;

    int code = 0;
    auto service = openServiceForCli(o.source, code);
    if (!service) return code;
    engine::Engine& svc = **service;
    session::StopSignals::install();
    bool headerShown = false;
    experiment::SweepHooks hooks;
    hooks.stopRequested = [] { return session::StopSignals::requested(); };
    hooks.onStep = [&](const experiment::SweepStep& step, unsigned) {
        if (!headerShown) printHeader(s, o.csv);
        headerShown = true;
        printStep(step, s, o.csv);
    };
    hooks.onEvent = [](const engine::EngineEvent& e) {
        if (const auto* sim = std::get_if<SimulationEvent>(&e))
            std::fprintf(stderr, "scenario: %s%s\n", sim->ok ? "" : "FAILED ", sim->text.c_str());
    };
    const char* name = s.kind == experiment::SweepKind::Ways ? "sweep ways" : "sweep mba";
    experiment::SweepRecording recording;
    if (o.record) {
        if (auto opened = recording.open(svc, *o.record, s.pollNs, o.force, cliSessionOrigin("sweep")); !opened) {
            std::fprintf(stderr, "rdtscope-cli %s: %s\n", name, opened.error().toString().c_str());
            return ExitFailure;
        }
        recording.hookSweep(hooks, s, 1);
    }
    auto result = experiment::runSweep(svc, s, hooks);
    int exit = ExitOk;
    if (!result) {
        std::fprintf(stderr, "rdtscope-cli %s: %s\n", name, result.error().toString().c_str());
        if (o.record) (void)recording.finishSweep(svc, s, result);
        return exitCodeFor(result.error());
    }
    for (const auto& n : result->notes)
        std::fprintf(stderr, "note: %s\n", n.c_str());
    if (!result->steps.empty()) printKnees(*result, o.csv);
    if (o.record) {
        if (auto closed = recording.finishSweep(svc, s, result); !closed) {
            std::fprintf(stderr, "rdtscope-cli %s: recording failed: %s\n", name, closed.error().toString().c_str());
            exit = ExitFailure;
        } else {
            std::fprintf(stderr, "recorded into %s\n", o.record->c_str());
        }
    }
    for (const auto& line : result->restoreLog)
        std::fprintf(stderr, "restore: %s\n", line.c_str());
    if (result->stopped) {
        const int sig = session::StopSignals::which();
        std::fprintf(stderr, "rdtscope-cli %s: stopped by %s after %zu step(s)\n", name,
            sig == SIGTERM      ? "SIGTERM"
                : sig == SIGINT ? "SIGINT"
                                : "a stop request",
            result->steps.size());
        exit = ExitFailure;
    }
    if (result->error) {
        std::fprintf(stderr, "rdtscope-cli %s: step %zu failed: %s\n", name, result->steps.size() + 1,
            result->error->toString().c_str());
        exit = exitCodeFor(*result->error);
    }
    if (!result->restored) {
        std::fprintf(stderr, "rdtscope-cli %s: the original allocation could NOT be restored (see above)\n", name);
        exit = ExitFailure;
    } else {
        std::fprintf(stderr, "original allocation restored\n");
    }
    if (result->simulated) std::fprintf(stderr, "note: all values above are simulated\n");
    return exit;
}

void addCommon(CLI::App& sub, SweepOptions& o)
{
    addSourceOptions(sub, o.source);
    sub.add_option("--group", o.group, "the control group to sweep")->type_name("GROUP")->required();
    addNumber(sub, "--settle", o.settle, { 0, 3600 }, "S", "hold each step this long before measuring (default 1)");
    addNumber(sub, "--measure", o.measure, { 0.01, 3600 }, "S", "then measure this long (default 2)");
    addNumber(sub, "--interval", o.intervalMs, kIntervalMs, "MS", "poll period while measuring (default 250)");
    addNumber(sub, "--tolerance", o.tolerancePct, { 0, 100 }, "PCT",
        "a knee is within PCT % of the curve's range from its best (default 5)");
    sub.add_flag("--csv", o.csv, "one CSV row per step, then the knees as # lines");
    sub.add_flag("--realtime", o.realtime, "simulated sources: run in real time (default: as fast as possible)");
    sub.add_option("--record", o.record, "also record the sweep into this session file (markers and its table)")
        ->type_name("FILE");
    sub.add_flag("--force", o.force, "with --record: replace FILE if it is a session file");
}

} // namespace

CommandRun defineSweep(CLI::App& cmd)
{
    auto o = std::make_shared<SweepOptions>();
    cmd.require_subcommand(1);
    cmd.footer("SIGINT/SIGTERM stop a sweep and restore the original allocation. Method: docs/EXPERIMENTS.md.");
    auto* ways = cmd.add_subcommand("ways", "step the group's L3 mask from its current one down to the minimum");
    addCommon(*ways, *o);
    ways->add_flag("--from-full", o->fromFull, "start from the full mask, not the group's current one");
    ways->add_option(
            "--isolate", o->isolate, "give these groups the ways the swept group does not hold\n(its curve alone)")
        ->type_name("GROUP,...");
    ways->callback([o] { o->kind = "ways"; });
    auto* mba = cmd.add_subcommand("mba", "step the group's MB cap from 100 down to the minimum");
    addCommon(*mba, *o);
    mba->add_option("--victim", o->victim, "also measure this group at every step")->type_name("GROUP");
    mba->callback([o] { o->kind = "mba"; });
    return [o] { return runSweepCommand(*o); };
}

} // namespace rdt::cli

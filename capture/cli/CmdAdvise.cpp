// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli advise --groups A,B,C: sweeps each group's ways alone, proposes masks for all of them with the
// lookahead algorithm (capture/experiment/Advisor.h, docs/EXPERIMENTS.md) and says what it expects; --apply writes
// the proposal and sets the measured change against the expected one.
#include "CmdRdtSource.h"
#include "CmdSessionCreate.h"
#include "Commands.h"
#include "core/Time.h"
#include "experiment/Advise.h"
#include "experiment/AdviseRecording.h"
#include "experiment/GroupWeight.h"
#include "rdt/GroupNames.h"
#include "session/StopSignals.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <variant>

namespace rdt::cli {

namespace {

struct AdviseOptions {
    SourceOptions source;
    std::string groups;
    std::string objective = "misses";
    std::vector<std::string> weights; ///< GROUP=W
    std::string protect;
    double settle = 1;
    double measure = 2;
    double intervalMs = 250;
    double tolerancePct = 5;
    bool apply = false;
    bool realtime = false;
    bool quiet = false;
    std::optional<std::string> record; ///< session file to record the run into (given, even empty: then refused)
    bool force = false;
};

/// Every --weight (each GROUP=W or a list of them) read as one list by the parser the GUI uses too, so a group
/// weighted twice across options is refused as it is within one.
Status parseWeights(const std::vector<std::string>& specs, std::map<std::string, double>* out)
{
    std::string all;
    for (const auto& s : specs)
        all += (all.empty() ? "" : ",") + s;
    auto list = experiment::parseGroupWeights(all);
    if (!list) return list.error();
    if (out) *out = experiment::weightsByPath(*list);
    return {};
}

using experiment::measureOf;
using experiment::oneLine;
using experiment::percentChange;

/// The proposal's table (and the measured one after --apply) on stdout; the exit code.
int printAdvice(const AdviseOptions& o, experiment::AdviseResult& result)
{
    const auto* r = &result;
    for (const auto& n : r->notes)
        std::fprintf(stderr, "note: %s\n", n.c_str());
    if (r->stopped && r->advice.groups.empty()) {
        std::fprintf(stderr, "rdtscope-cli advise: stopped; every sweep's allocation was restored, nothing proposed\n");
        return ExitFailure;
    }
    std::printf("Proposal (objective %s, lookahead: Qureshi & Patt, MICRO 2006)%s\n", o.objective.c_str(),
        r->simulated ? " (simulated)" : "");
    std::printf("%-16s %5s  %-24s %5s %10s %10s  %10s %10s  %s\n", "GROUP", "WAYS", "SCHEMATA", "KNEE", "LLC[MiB]",
        "MBT[MB/s]", "->LLC", "->MBT", "EXPECTED CHANGE");
    for (std::size_t i = 0; i < r->advice.groups.size(); ++i) {
        const auto& g = r->advice.groups[i];
        const auto now = measureOf(r->before, g.group);
        const std::string text = oneLine(g.change);
        char change[160];
        std::snprintf(change, sizeof change, "occupancy %+.0f %%, memory traffic %+.0f %%",
            percentChange(g.expectedOccupancyBytes, now.occupancyBytes),
            percentChange(g.expectedTotalBps, now.totalBps));
        std::printf("%-16s %5u  %-24s %5.0f %10.2f %10.1f  %10.2f %10.1f  %s\n", displayGroup(g.group).c_str(), g.ways,
            text.c_str(), r->curves[i].knee.x, now.occupancyBytes / 1048576.0, now.totalBps / 1e6,
            g.expectedOccupancyBytes / 1048576.0, g.expectedTotalBps / 1e6, change);
    }
    for (const auto& n : r->advice.notes)
        std::printf("note: %s\n", n.c_str());
    if (!r->applied) {
        std::printf("Not applied (--apply writes it as one transaction over the groups).\n");
    } else {
        for (const auto& line : r->applyLog)
            std::fprintf(stderr, "apply: %s\n", line.c_str());
        std::printf("Applied. Measured against expected:\n");
        std::printf(
            "%-16s %12s %12s %8s %12s %12s\n", "GROUP", "LLC[MiB]", "EXPECTED", "DIFF", "MBT[MB/s]", "EXPECTED");
        for (const auto& g : r->advice.groups) {
            const auto m = measureOf(r->after, g.group);
            std::printf("%-16s %12.2f %12.2f %+7.1f%% %12.1f %12.1f\n", displayGroup(g.group).c_str(),
                m.occupancyBytes / 1048576.0, g.expectedOccupancyBytes / 1048576.0,
                percentChange(m.occupancyBytes, g.expectedOccupancyBytes), m.totalBps / 1e6, g.expectedTotalBps / 1e6);
        }
    }
    if (r->simulated) std::fprintf(stderr, "note: all values above are simulated\n");
    return r->stopped ? ExitFailure : ExitOk;
}

int runAdviseCommand(const AdviseOptions& o)
{
    experiment::AdviseSettings s;
    s.groups = groupPathsFromList(o.groups);
    s.advice.objective = *experiment::parseObjective(o.objective); // checked when parsed
    s.advice.protect = groupPathFromUser(o.protect);
    s.advice.tolerance = o.tolerancePct / 100.0;
    if (s.advice.objective == experiment::Objective::Protect && o.protect.empty()) {
        std::fprintf(stderr, "rdtscope-cli advise: --objective protect needs --protect GROUP\n");
        return ExitUsage;
    }
    Status objective = parseWeights(o.weights, &s.advice.weights);
    if (objective) objective = experiment::checkObjective(s.advice, s.groups);
    if (!objective) {
        std::fprintf(stderr, "rdtscope-cli advise: %s\n", objective.error().toString().c_str());
        return ExitUsage;
    }
    s.sweep.settleNs = secondsToNs(o.settle);
    s.sweep.measureNs = secondsToNs(o.measure);
    s.sweep.pollNs = static_cast<std::uint64_t>(o.intervalMs * 1e6);
    s.sweep.tolerance = o.tolerancePct / 100.0;
    s.sweep.paced = o.realtime;
    s.apply = o.apply;

    int code = 0;
    auto service = openServiceForCli(o.source, code);
    if (!service) return code;
    session::StopSignals::install();
    experiment::AdviseHooks hooks;
    hooks.stopRequested = [] { return session::StopSignals::requested(); };
    hooks.onPhase = [](const std::string& what) { std::fprintf(stderr, "advise: %s\n", what.c_str()); };
    if (!o.quiet)
        hooks.onSweepStep = [](const std::string& g, const experiment::SweepStep& st, unsigned) {
            std::fprintf(stderr, "  %s %2llu ways: LLC %.1f MiB, MBT %.1f MB/s\n", displayGroup(g).c_str(),
                static_cast<unsigned long long>(st.value), st.occupancyBytes / 1048576.0, st.totalBps / 1e6);
        };
    experiment::AdviseRecording recording;
    const bool recorded = o.record.has_value();
    if (recorded) {
        if (auto opened = recording.open(**service, *o.record, s, o.force, cliSessionOrigin("advise")); !opened) {
            std::fprintf(stderr, "rdtscope-cli advise: %s\n", opened.error().toString().c_str());
            return ExitFailure;
        }
        recording.hook(hooks, **service);
    }
    auto r = experiment::runAdvise(**service, s, hooks);
    if (!r) {
        std::fprintf(stderr, "rdtscope-cli advise: %s\n", r.error().toString().c_str());
        if (recorded) (void)recording.finish(**service, r);
        return exitCodeFor(r.error());
    }
    const int exit = printAdvice(o, *r);
    if (recorded) {
        if (auto closed = recording.finish(**service, r); !closed) {
            std::fprintf(stderr, "rdtscope-cli advise: recording failed: %s\n", closed.error().toString().c_str());
            return ExitFailure;
        }
        std::fprintf(stderr, "recorded into %s\n", o.record->c_str());
    }
    return exit;
}

} // namespace

CommandRun defineAdvise(CLI::App& cmd)
{
    auto o = std::make_shared<AdviseOptions>();
    cmd.footer("Each group is swept alone (the others on the rest of the ways); SIGINT/SIGTERM restore. "
               "Method: docs/EXPERIMENTS.md.");
    addSourceOptions(cmd, o->source);
    cmd.add_option("--groups", o->groups, "the control groups to share the cache between")
        ->type_name("A,B,...")
        ->required();
    cmd.add_option("--objective", o->objective, "misses (default: the most hits), weighted, protect")
        ->type_name("NAME")
        ->check(checkedBy(experiment::parseObjective));
    cmd.add_option("--weight", o->weights, "weighted: a group's weight (repeatable, or A=3,B=1)")
        ->type_name("GROUP=W")
        ->check(checkedBy([](const std::string& t) { return parseWeights({ t }, nullptr); }));
    cmd.add_option("--protect", o->protect, "protect: the group that gets its knee first")->type_name("GROUP");
    addNumber(cmd, "--settle", o->settle, { 0, 3600 }, "S", "hold each step this long before measuring (default 1)");
    addNumber(cmd, "--measure", o->measure, { 0.01, 3600 }, "S", "then measure this long (default 2)");
    addNumber(cmd, "--interval", o->intervalMs, kIntervalMs, "MS", "poll period while measuring (default 250)");
    addNumber(cmd, "--tolerance", o->tolerancePct, { 0, 100 }, "PCT", "knee and noise tolerance (default 5)");
    cmd.add_flag("--apply", o->apply, "write the proposal, then measure it against the prediction");
    cmd.add_flag("--realtime", o->realtime, "simulated sources: run in real time (default: as fast as possible)");
    cmd.add_flag("--quiet", o->quiet, "do not print each sweep step");
    cmd.add_option("--record", o->record, "also record the run into this session file (its sweeps, the proposal)")
        ->type_name("FILE");
    cmd.add_flag("--force", o->force, "with --record: replace FILE if it is a session file");
    return [o] { return runAdviseCommand(*o); };
}

} // namespace rdt::cli

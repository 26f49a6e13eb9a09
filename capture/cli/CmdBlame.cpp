// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli blame --victim GROUP|--victim-pid PID [--probe]: who is hurting the victim. Observes it and its
// neighbours, ranks every other control group by its evidence and, with --probe, fences the top suspects one at a
// time and re-measures the victim; every probed allocation is written back, also on SIGINT/SIGTERM
// (capture/blame/Blame.h, docs/BLAME.md).
#include "CmdRdtSource.h"
#include "CmdSessionCreate.h"
#include "Commands.h"
#include "blame/Blame.h"
#include "blame/BlameRecording.h"
#include "blame/TaskSuspects.h"
#include "core/Json.h"
#include "core/Time.h"
#include "rdt/GroupNames.h"
#include "session/StopSignals.h"

#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <variant>

namespace rdt::cli {

namespace {

struct BlameOptions {
    SourceOptions source;
    std::string victim;
    std::optional<double> victimPid;
    bool probe = false;
    double duration = 10;
    double window = 2;
    double intervalMs = 250;
    double maxProbes = 3;
    bool json = false;
    bool realtime = false;
    bool contain = false;
    std::optional<std::string> record; ///< session file to record the run into (given, even empty: then refused)
    bool force = false;
};

std::string pct(double share, int decimals = 0)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f %%", decimals, share * 100);
    return buf;
}

json::Ordered optionalNumber(const std::optional<double>& v, int digits = 4)
{
    return v ? json::number(*v, digits) : json::Ordered(nullptr);
}

json::Ordered probeJson(const blame::ProbeResult& p)
{
    json::Ordered j;
    j["resource"] = blame::resourceName(p.resource);
    j["fence"] = p.fence;
    if (!p.together.empty()) {
        json::Ordered together = json::Ordered::array();
        for (const auto& g : p.together)
            together.push_back(displayGroup(g));
        j["together"] = together;
        j["alone"] = p.alone;
    }
    j["domain"] = p.domain;
    j["victim_occupancy_before_bytes"] = json::number(p.victimOccupancyBefore, 6);
    j["victim_occupancy_during_bytes"] = json::number(p.victimOccupancyDuring, 6);
    j["victim_miss_bps_before"] = json::number(p.victimMissBpsBefore, 6);
    j["victim_miss_bps_during"] = json::number(p.victimMissBpsDuring, 6);
    j["occupancy_recovered"] = json::number(p.occupancyRecovered, 4);
    j["uncertainty"] = json::number(p.uncertainty, 4);
    j["miss_reduction"] = json::number(p.missReduction, 4);
    j["ipc_gain"] = optionalNumber(p.ipcGain);
    j["writes"] = p.writes;
    j["restored"] = p.restored;
    j["sentence"] = p.sentence;
    return j;
}

std::string jsonOf(const blame::BlameResult& r, const std::string& source)
{
    json::Ordered j;
    j["victim"] = displayGroup(r.harm.group);
    j["source"] = source;
    j["simulated"] = r.simulated;
    json::Ordered harm;
    json::Ordered domains = json::Ordered::array();
    for (const auto& d : r.harm.domains) {
        json::Ordered dj;
        dj["domain"] = d.domain;
        dj["occupancy_bytes"] = json::number(d.occupancyBytes, 6);
        dj["capacity_bytes"] = optionalNumber(d.capacityBytes, 6);
        dj["miss_bps"] = json::number(d.missBps, 6);
        dj["text"] = d.text;
        domains.push_back(dj);
    }
    harm["domains"] = domains;
    harm["ipc"] = optionalNumber(r.harm.ipc);
    harm["mpki"] = optionalNumber(r.harm.mpki);
    harm["memory_bound"] = optionalNumber(r.harm.memoryBound);
    harm["pmu"] = r.harm.pmu;
    harm["missing"] = r.harm.missing;
    j["harm"] = harm;
    json::Ordered ranking = json::Ordered::array();
    for (const auto& s : r.ranking) {
        json::Ordered sj;
        sj["group"] = blame::suspectName(s);
        sj["resource"] = blame::resourceName(s.resource);
        // A task of the default group has no passive evidence of its own (resctrl counts per group): unknown, not 0.
        if (s.task) sj["task"] = *s.task;
        sj["effect"] = s.task ? json::Ordered(nullptr) : json::number(s.effect, 4);
        sj["uncertainty"] = s.task ? json::Ordered(nullptr) : json::number(s.uncertainty, 4);
        if (s.probe && !s.probe->verdict.empty()) sj["verdict"] = s.probe->verdict;
        sj["domain"] = s.domain;
        sj["fill_bps"] = json::number(s.fillBps, 6);
        sj["occupancy_bytes"] = json::number(s.occupancyBytes, 6);
        sj["overlap"] = optionalNumber(s.overlap);
        sj["correlation"] = optionalNumber(s.correlation);
        sj["windows"] = s.windows;
        sj["sentence"] = s.sentence;
        if (s.probe) sj["probe"] = probeJson(*s.probe);
        ranking.push_back(sj);
    }
    j["ranking"] = ranking;
    j["probed"] = r.probed;
    j["probe_writes"] = r.probeWrites;
    j["restored"] = r.restored;
    j["passive_s"] = json::number(static_cast<double>(r.passiveNs) / 1e9, 6);
    j["verdict_s"] = r.verdictNs ? json::number(static_cast<double>(r.verdictNs) / 1e9, 6) : json::Ordered(nullptr);
    j["elapsed_s"] = json::number(static_cast<double>(r.elapsedNs) / 1e9, 6);
    if (r.containment) {
        const auto& c = *r.containment;
        json::Ordered cj;
        cj["group"] = displayGroup(c.group);
        cj["applied"] = c.applied;
        cj["written"] = c.text;
        cj["undo"] = c.undoText;
        cj["victim_ways"] = c.victimWays;
        cj["victim_ways_reason"] = c.waysText;
        cj["bandwidth_cap"] = c.bandwidthText.empty() ? json::Ordered(nullptr) : json::Ordered(c.bandwidthText);
        cj["victim_occupancy_before_bytes"] = json::number(c.victimOccupancyBefore, 6);
        cj["victim_occupancy_after_bytes"] = json::number(c.victimOccupancyAfter, 6);
        cj["victim_miss_bps_before"] = json::number(c.victimMissBpsBefore, 6);
        cj["victim_miss_bps_after"] = json::number(c.victimMissBpsAfter, 6);
        cj["occupancy_recovered"] = json::number(c.occupancyRecovered, 4);
        cj["sentence"] = c.applied ? c.sentence : c.error;
        j["containment"] = cj;
    }
    j["stopped"] = r.stopped;
    j["notes"] = r.notes;
    return json::dump(j) + "\n";
}

void printText(const blame::BlameResult& r)
{
    std::printf("Victim: %s%s\n", displayGroup(r.harm.group).c_str(), r.simulated ? " (simulated)" : "");
    for (const auto& d : r.harm.domains)
        std::printf("  %s\n", d.text.c_str());
    if (r.harm.ipc)
        std::printf("  IPC %.2f, MPKI %.2f, memory-bound %s (%s)\n", *r.harm.ipc, r.harm.mpki.value_or(0),
            r.harm.memoryBound ? pct(*r.harm.memoryBound).c_str() : "not counted", r.harm.pmu.c_str());
    for (const auto& m : r.harm.missing)
        std::printf("  missing: %s\n", m.c_str());
    std::printf("%4s  %-20s %-10s %7s %7s  %s\n", "RANK", "GROUP", "RESOURCE", "EFFECT", "+-", "VERDICT");
    unsigned rank = 0;
    for (const auto& s : r.ranking) {
        std::printf("%4u  %-20s %-10s %7s %7s  %s\n", ++rank, blame::suspectName(s).c_str(),
            blame::resourceName(s.resource), s.task ? "-" : pct(s.effect).c_str(),
            s.task ? "-" : pct(s.uncertainty, 1).c_str(),
            s.probe && !s.probe->verdict.empty() ? s.probe->verdict.c_str() : "-");
        std::printf("      %s\n", s.sentence.c_str());
        if (s.probe && !s.probe->alone.empty()) std::printf("      probe alone: %s\n", s.probe->alone.c_str());
        if (s.probe && !s.probe->sentence.empty()) std::printf("      probe: %s\n", s.probe->sentence.c_str());
    }
    std::fflush(stdout);
}

int runBlameCommand(const BlameOptions& o)
{
    int code = 0;
    auto service = openServiceForCli(o.source, code);
    if (!service) return code;
    engine::Engine& svc = **service;
    blame::BlameSettings s;
    if (o.victimPid) {
        auto g = blame::groupOfPid(svc, static_cast<unsigned>(*o.victimPid));
        if (!g) {
            std::fprintf(stderr, "rdtscope-cli blame: %s\n", g.error().toString().c_str());
            return exitCodeFor(g.error());
        }
        s.victim = *g;
        std::fprintf(stderr, "PID %.0f is in group %s\n", *o.victimPid, displayGroup(s.victim).c_str());
    } else {
        s.victim = groupPathFromUser(o.victim);
    }
    s.durationNs = secondsToNs(o.duration);
    s.windowNs = secondsToNs(o.window);
    s.pollNs = static_cast<std::uint64_t>(o.intervalMs * 1e6);
    s.probe = o.probe;
    s.maxProbes = static_cast<unsigned>(o.maxProbes);
    s.paced = o.realtime;
    s.contain = o.contain;

    session::StopSignals::install();
    blame::BlameHooks hooks;
    hooks.stopRequested = [] { return session::StopSignals::requested(); };
    hooks.onEvent = [](const engine::EngineEvent& e) {
        if (const auto* sim = std::get_if<SimulationEvent>(&e))
            std::fprintf(stderr, "scenario: %s%s\n", sim->ok ? "" : "FAILED ", sim->text.c_str());
    };
    hooks.onPhase = [](const std::string& text, std::uint64_t) { std::fprintf(stderr, "blame: %s\n", text.c_str()); };
    blame::BlameRecording recording;
    if (o.record) {
        if (auto opened = recording.open(svc, *o.record, s, o.force, cliSessionOrigin("blame")); !opened) {
            std::fprintf(stderr, "rdtscope-cli blame: %s\n", opened.error().toString().c_str());
            return ExitFailure;
        }
        recording.hook(hooks);
    }
    auto result = blame::runBlame(svc, s, hooks);
    int exit = ExitOk;
    if (o.record) {
        if (auto closed = recording.finish(svc, result); !closed) {
            std::fprintf(stderr, "rdtscope-cli blame: recording failed: %s\n", closed.error().toString().c_str());
            exit = ExitFailure;
        } else {
            std::fprintf(stderr, "recorded into %s\n", o.record->c_str());
        }
    }
    if (!result) {
        std::fprintf(stderr, "rdtscope-cli blame: %s\n", result.error().toString().c_str());
        return exitCodeFor(result.error());
    }
    if (o.json) {
        std::fputs(jsonOf(*result, svc.source().kind).c_str(), stdout);
        std::fflush(stdout);
    } else {
        printText(*result);
    }
    for (const auto& n : result->notes)
        std::fprintf(stderr, "note: %s\n", n.c_str());
    for (const auto& sus : result->ranking)
        if (sus.probe)
            for (const auto& line : sus.probe->log)
                std::fprintf(stderr, "probe: %s\n", line.c_str());
    if (result->containment) {
        const auto& c = *result->containment;
        if (c.applied) {
            if (!c.waysText.empty()) std::fprintf(stderr, "contain: %s\n", c.waysText.c_str());
            std::fprintf(stderr, "%s\n", c.sentence.c_str());
            std::fprintf(stderr, "undo: rdtscope-cli alloc set '%s' --group %s%s\n", c.undoText.c_str(),
                displayGroup(c.group).c_str(),
                result->simulated ? " (this simulated machine ends with this command: the containment goes with it)"
                                  : "");
        } else {
            std::fprintf(stderr, "rdtscope-cli blame: %s was not contained: %s\n", displayGroup(c.group).c_str(),
                c.error.c_str());
            exit = ExitFailure;
        }
    }
    if (result->stopped) {
        const int sig = session::StopSignals::which();
        std::fprintf(stderr, "rdtscope-cli blame: stopped by %s\n",
            sig == SIGTERM      ? "SIGTERM"
                : sig == SIGINT ? "SIGINT"
                                : "a stop request");
        exit = ExitFailure;
    }
    if (result->probed) {
        if (result->restored) {
            std::fprintf(stderr, "every probed allocation reads back as before (%u write(s))\n", result->probeWrites);
        } else {
            std::fprintf(stderr, "rdtscope-cli blame: a probed allocation could NOT be restored (see above)\n");
            exit = ExitFailure;
        }
    }
    if (result->simulated) std::fprintf(stderr, "note: all values above are simulated\n");
    return exit;
}

} // namespace

CommandRun defineBlame(CLI::App& cmd)
{
    auto o = std::make_shared<BlameOptions>();
    addSourceOptions(cmd, o->source);
    auto* victim = cmd.add_option("--victim", o->victim, "the control group that suffers")->type_name("GROUP");
    auto* pid = addNumber(cmd, "--victim-pid", o->victimPid, { 1, 4194304, true }, "PID",
        "the victim is the control group holding this PID");
    victim->excludes(pid);
    pid->excludes(victim);
    cmd.add_flag("--probe", o->probe,
        "fence the top suspects one at a time (ways or MBA) and re-measure the victim; writable sources only");
    addNumber(cmd, "--duration", o->duration, { 1, 86400 }, "S", "observe passively this long (default 10)");
    addNumber(cmd, "--window", o->window, { 0.01, 3600 }, "S", "sliding window length (default 2)");
    addNumber(cmd, "--interval", o->intervalMs, kIntervalMs, "MS", "poll period (default 250)");
    addNumber(cmd, "--max-probes", o->maxProbes, { 1, 16, true }, "N", "fence at most N suspects (default 3)");
    cmd.add_flag("--json", o->json, "one JSON object: the victim's harm and the ranking (docs/BLAME.md)");
    cmd.add_flag("--realtime", o->realtime, "simulated sources: run in real time (default: as fast as possible)");
    cmd.add_flag("--contain", o->contain,
        "then move the culprit to the ways the victim leaves over (and the lowest MB for a bandwidth culprit),\n"
        "re-measure the victim and print the undo; the containment stays");
    cmd.add_option("--record", o->record, "also record the run into this session file (blame markers)")
        ->type_name("FILE");
    cmd.add_flag("--force", o->force, "with --record: replace FILE if it is a session file");
    cmd.footer("SIGINT/SIGTERM stop blame and restore every probed allocation. Method: docs/BLAME.md.");
    return [o] {
        if (o->victim.empty() && !o->victimPid) {
            std::fprintf(stderr, "rdtscope-cli blame: name the victim with --victim GROUP or --victim-pid PID\n");
            return static_cast<int>(ExitUsage);
        }
        return runBlameCommand(*o);
    };
}

} // namespace rdt::cli

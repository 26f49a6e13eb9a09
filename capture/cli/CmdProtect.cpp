// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli protect --group LC --target SIGNAL [--be GROUPS] [--policy static|slack|fsm|model]: holds a group's
// target by moving the best-effort groups' ways and bandwidth, every write transactional, the start allocation
// written back at the end and on SIGINT/SIGTERM; and the lab, --compare POLICIES --scenario S --seed N, which runs
// each policy on the same simulated workload and prints their figures (capture/protect, docs/PROTECT.md).
#include "CmdRdtSource.h"
#include "CmdSessionCreate.h"
#include "Commands.h"
#include "core/Json.h"
#include "core/Time.h"
#include "experiment/SweepRecording.h"
#include "protect/Lab.h"
#include "protect/Protect.h"
#include "protect/ScenarioVariant.h"
#include "rdt/GroupNames.h"
#include "session/StopSignals.h"

#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>

namespace rdt::cli {

namespace {

struct ProtectOptions {
    SourceOptions source;
    std::string group;
    std::string target;
    std::string be; ///< comma-separated
    std::string policy = "model";
    std::optional<double> duration;
    double intervalMs = 100;
    std::string signalCmd;
    double minWays = 1;
    std::optional<double> mbaFloor;
    double maxWrites = 10;
    bool realtime = false;
    bool json = false;
    std::string compare; ///< comma-separated policies: the lab
    double seed = 1;
    std::optional<std::string> record;
    bool force = false;
    bool trace = false;
};

std::vector<std::string> splitList(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, ','))
        if (!part.empty()) out.push_back(part);
    return out;
}

std::string pct(const std::optional<double>& share)
{
    if (!share) return "unknown";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", *share * 100);
    return buf;
}

std::string throughputText(const std::optional<double>& v, const std::string& unit)
{
    if (!v) return "unknown";
    char buf[64];
    if (unit == "instructions/s")
        std::snprintf(buf, sizeof buf, "%.3f G instr/s", *v / 1e9);
    else
        std::snprintf(buf, sizeof buf, "%.0f MB/s mem", *v / 1e6);
    return buf;
}

std::string convergenceText(const std::vector<std::optional<double>>& c)
{
    if (c.empty()) return "no load step";
    std::string t;
    for (const auto& v : c) {
        char buf[24];
        if (v)
            std::snprintf(buf, sizeof buf, "%.1f", *v);
        else
            std::snprintf(buf, sizeof buf, "never");
        t += (t.empty() ? "" : " ") + std::string(buf);
    }
    return t;
}

json::Ordered optionalNumber(const std::optional<double>& v, int digits = 4)
{
    return v ? json::number(*v, digits) : json::Ordered(nullptr);
}

int runLabCommand(const ProtectOptions& o)
{
    if (o.source.source != "auto" && o.source.source != "sim") {
        std::fprintf(stderr,
            "rdtscope-cli protect: --compare runs every policy on the simulator; --source %s is not "
            "simulated (drop --source, or run one policy with --policy)\n",
            o.source.source.c_str());
        return ExitUsage;
    }
    protect::LabSettings s;
    s.scenario = o.source.scenario.empty() ? "load-steps" : o.source.scenario;
    s.seed = static_cast<std::uint64_t>(o.seed);
    s.policies = splitList(o.compare);
    s.group = o.group.empty() ? std::string() : groupPathFromUser(o.group);
    s.target = o.target;
    s.be = splitList(o.be);
    if (o.duration) s.durationNs = secondsToNs(*o.duration);
    s.intervalNs = static_cast<std::uint64_t>(o.intervalMs * 1e6);
    session::StopSignals::install();
    s.stopRequested = [] { return session::StopSignals::requested(); };
    s.onPolicyStart = [](const std::string& p) { std::fprintf(stderr, "protect lab: running %s\n", p.c_str()); };
    auto lab = protect::runLab(s);
    if (!lab) {
        std::fprintf(stderr, "rdtscope-cli protect: %s\n", lab.error().toString().c_str());
        return exitCodeFor(lab.error());
    }
    if (o.json) {
        json::Ordered j;
        j["scenario"] = lab->scenario;
        j["seed"] = lab->seed;
        j["group"] = displayGroup(lab->group);
        j["target"] = lab->target;
        j["duration_s"] = json::number(static_cast<double>(lab->durationNs) / 1e9, 6);
        j["simulated"] = true;
        json::Ordered policies = json::Ordered::array();
        for (const auto& f : lab->figures) {
            json::Ordered p;
            p["policy"] = f.policy;
            p["violation_share"] = optionalNumber(f.violationShare1s);
            p["violation_share_60s"] = optionalNumber(f.violationShare60s);
            p["be_throughput"] = optionalNumber(f.beThroughput, 6);
            p["be_throughput_unit"] = f.throughputUnit;
            json::Ordered conv = json::Ordered::array();
            for (const auto& c : f.convergenceS)
                conv.push_back(optionalNumber(c));
            p["convergence_s"] = conv;
            p["writes"] = f.writes;
            p["restored"] = f.restored;
            policies.push_back(p);
        }
        j["policies"] = policies;
        j["stopped"] = lab->stopped;
        std::fputs((json::dump(j) + "\n").c_str(), stdout);
    } else {
        std::printf("Protect lab (simulated): scenario %s, seed %llu, group %s, target %s, %.0f s per policy\n",
            lab->scenario.c_str(), static_cast<unsigned long long>(lab->seed), displayGroup(lab->group).c_str(),
            lab->target.c_str(), static_cast<double>(lab->durationNs) / 1e9);
        std::printf("%-8s %10s %10s %18s %8s  %s\n", "POLICY", "VIOL 1s", "VIOL 60s", "BE THROUGHPUT", "WRITES",
            "CONVERGENCE AFTER EACH LOAD STEP (s)");
        for (const auto& f : lab->figures)
            std::printf("%-8s %10s %10s %18s %8u  %s\n", f.policy.c_str(), pct(f.violationShare1s).c_str(),
                pct(f.violationShare60s).c_str(), throughputText(f.beThroughput, f.throughputUnit).c_str(), f.writes,
                convergenceText(f.convergenceS).c_str());
    }
    std::fflush(stdout);
    int exit = ExitOk;
    for (const auto& r : lab->runs)
        if (!r.restored) {
            std::fprintf(stderr, "rdtscope-cli protect: %s did NOT restore its start allocation\n", r.policy.c_str());
            exit = ExitFailure;
        }
    if (lab->stopped) {
        std::fprintf(stderr, "rdtscope-cli protect: stopped; the policies not run are missing\n");
        exit = ExitFailure;
    }
    std::fprintf(stderr, "note: all values above are simulated\n");
    return exit;
}

int runProtectCommand(const ProtectOptions& o)
{
    if (o.group.empty() || o.target.empty()) {
        std::fprintf(stderr,
            "rdtscope-cli protect: name the group with --group and its target with --target "
            "(or compare policies with --compare)\n");
        return ExitUsage;
    }
    auto target = protect::parseTarget(o.target, !o.signalCmd.empty());
    if (!target) {
        std::fprintf(stderr, "rdtscope-cli protect: %s\n", target.error().toString().c_str());
        return ExitUsage;
    }
    int code = 0;
    auto service = openServiceForCli(o.source, code, "protect");
    if (!service) return code;
    engine::Engine& svc = **service;
    protect::ProtectSettings s;
    s.lcGroup = groupPathFromUser(o.group);
    for (const auto& g : splitList(o.be))
        s.beGroups.push_back(groupPathFromUser(g));
    s.target = *target;
    s.signalCommand = o.signalCmd;
    s.policy = o.policy;
    s.intervalNs = static_cast<std::uint64_t>(o.intervalMs * 1e6);
    s.durationNs = o.duration ? secondsToNs(*o.duration) : 0;
    s.minBeWays = static_cast<unsigned>(o.minWays);
    if (o.mbaFloor) s.mbaFloor = static_cast<unsigned>(*o.mbaFloor);
    s.maxWritesPerSecond = o.maxWrites;
    s.paced = o.realtime || !svc.source().simulated;

    session::StopSignals::install();
    protect::ProtectHooks hooks;
    hooks.stopRequested = [] { return session::StopSignals::requested(); };
    hooks.onEvent = [](const engine::EngineEvent& e) {
        if (const auto* sim = std::get_if<SimulationEvent>(&e))
            std::fprintf(stderr, "scenario: %s%s\n", sim->ok ? "" : "FAILED ", sim->text.c_str());
    };
    hooks.onDecision = [](const protect::Decision& d, std::uint64_t) {
        std::fprintf(stderr, "protect: %7.2f s %-8s %s: %s\n", static_cast<double>(d.offsetNs) / 1e9, d.action.c_str(),
            d.knobs.c_str(), d.reason.c_str());
    };
    if (o.trace)
        hooks.onInterval = [](const protect::IntervalRecord& i) {
            std::fprintf(stderr, "interval: %7.2f s signal %s slack %s best-effort ways %u%s occupancy %s\n",
                static_cast<double>(i.offsetNs) / 1e9, i.signal ? std::to_string(*i.signal).c_str() : "unread",
                i.slack ? std::to_string(*i.slack).c_str() : "unknown", i.knobs.beWays,
                i.knobs.beMba ? (" MB " + std::to_string(*i.knobs.beMba)).c_str() : "",
                i.lcOccupancyBytes ? std::to_string(*i.lcOccupancyBytes / 1048576.0).c_str() : "unread");
        };
    experiment::SweepRecording recording;
    if (o.record) {
        if (auto opened = recording.open(svc, *o.record, s.intervalNs, o.force, cliSessionOrigin("protect")); !opened) {
            std::fprintf(stderr, "rdtscope-cli protect: %s\n", opened.error().toString().c_str());
            return ExitFailure;
        }
        recording.hookEvents(hooks.onBatch, hooks.onEvent);
        auto print = hooks.onDecision;
        hooks.onDecision = [&recording, print](const protect::Decision& d, std::uint64_t t) {
            print(d, t);
            recording.marker(t, "protect", "protect: " + d.action + " " + d.knobs + ": " + d.reason);
        };
    }
    auto result = protect::runProtect(svc, s, hooks);
    int exit = ExitOk;
    if (o.record) {
        if (auto closed = recording.finish(result ? (result->stopped ? "stopped" : "done") : "failed"); !closed) {
            std::fprintf(stderr, "rdtscope-cli protect: recording failed: %s\n", closed.error().toString().c_str());
            exit = ExitFailure;
        } else {
            std::fprintf(stderr, "recorded into %s\n", o.record->c_str());
        }
    }
    if (!result) {
        std::fprintf(stderr, "rdtscope-cli protect: %s\n", result.error().toString().c_str());
        return exitCodeFor(result.error());
    }
    const auto f = protect::figuresOf(*result);
    unsigned held = 0, read = 0;
    for (const auto& i : result->intervals)
        if (i.slack) {
            ++read;
            if (*i.slack >= 0) ++held;
        }
    if (o.json) {
        json::Ordered j;
        j["group"] = displayGroup(s.lcGroup);
        j["target"] = result->target.text();
        j["policy"] = result->policy;
        j["simulated"] = result->simulated;
        j["intervals"] = result->intervals.size();
        j["violation_share"] = optionalNumber(f.violationShare1s);
        j["violation_share_60s"] = optionalNumber(f.violationShare60s);
        j["be_throughput"] = optionalNumber(f.beThroughput, 6);
        j["be_throughput_unit"] = f.throughputUnit;
        json::Ordered conv = json::Ordered::array();
        for (const auto& c : f.convergenceS)
            conv.push_back(optionalNumber(c));
        j["convergence_s"] = conv;
        j["writes"] = result->writes;
        json::Ordered decisions = json::Ordered::array();
        for (const auto& d : result->decisions) {
            json::Ordered dj;
            dj["t_s"] = json::number(static_cast<double>(d.offsetNs) / 1e9, 6);
            dj["action"] = d.action;
            dj["knobs"] = d.knobs;
            dj["reason"] = d.reason;
            dj["writes"] = d.writes;
            decisions.push_back(dj);
        }
        j["decisions"] = decisions;
        j["start_allocation"] = result->startAllocation;
        j["end_allocation"] = result->endAllocation;
        j["restored"] = result->restored;
        j["stopped"] = result->stopped;
        j["notes"] = result->notes;
        std::fputs((json::dump(j) + "\n").c_str(), stdout);
    } else {
        std::printf("Protected %s%s: target %s, policy %s, best-effort %s\n", displayGroup(s.lcGroup).c_str(),
            result->simulated ? " (simulated)" : "", result->target.text().c_str(), result->policy.c_str(),
            [&] {
                std::string t;
                for (const auto& g : result->beGroups)
                    t += (t.empty() ? "" : ",") + displayGroup(g);
                return t;
            }()
                .c_str());
        std::printf("  target held in %u of %u intervals read (%.1f s); 1 s windows broken: %s; 60 s windows broken: "
                    "%s\n",
            held, read, static_cast<double>(result->elapsedNs) / 1e9, pct(f.violationShare1s).c_str(),
            pct(f.violationShare60s).c_str());
        std::printf("  convergence after each load step (s): %s\n", convergenceText(f.convergenceS).c_str());
        std::printf("  best-effort throughput %s; %u schemata write(s); %zu decision(s)\n",
            throughputText(f.beThroughput, f.throughputUnit).c_str(), result->writes, result->decisions.size());
        std::printf("  PMU: %s\n", result->pmu.c_str());
    }
    std::fflush(stdout);
    for (const auto& n : result->notes)
        std::fprintf(stderr, "note: %s\n", n.c_str());
    for (const auto& line : result->startAllocation)
        std::fprintf(stderr, "start allocation: %s\n", line.c_str());
    for (const auto& line : result->restoreLog)
        std::fprintf(stderr, "restore: %s\n", line.c_str());
    for (const auto& line : result->endAllocation)
        std::fprintf(stderr, "end allocation: %s\n", line.c_str());
    std::fprintf(stderr, "%s\n",
        result->endAllocation == result->startAllocation
            ? "every best-effort group's schemata reads as at the start"
            : "the best-effort groups' schemata differ from the start (see above)");
    if (result->error) {
        std::fprintf(stderr, "rdtscope-cli protect: %s\n", result->error->toString().c_str());
        exit = ExitFailure;
    }
    if (result->stopped) {
        const int sig = session::StopSignals::which();
        std::fprintf(stderr, "rdtscope-cli protect: stopped by %s; the start allocation was written back\n",
            sig == SIGTERM      ? "SIGTERM"
                : sig == SIGINT ? "SIGINT"
                                : "a stop request");
        exit = ExitFailure;
    }
    if (!result->restored) {
        std::fprintf(stderr, "rdtscope-cli protect: the start allocation could NOT be restored (see above)\n");
        exit = ExitFailure;
    }
    if (result->simulated) std::fprintf(stderr, "note: all values above are simulated\n");
    return exit;
}

} // namespace

CommandRun defineProtect(CLI::App& cmd)
{
    auto o = std::make_shared<ProtectOptions>();
    addSourceOptions(cmd, o->source);
    cmd.add_option("--group", o->group, "the control group to protect (latency-critical)")->type_name("GROUP");
    cmd.add_option("--target", o->target,
           "what it must hold: ipc>=X, mpki<=X, occupancy>=BYTES (K/M/G), or NAME<=X / NAME>=X with --signal-cmd")
        ->type_name("SIGNAL");
    cmd.add_option("--be", o->be, "best-effort control groups, comma-separated (default: every other control group)")
        ->type_name("GROUPS");
    cmd.add_option("--policy", o->policy, "static, slack, fsm or model (default model; docs/PROTECT.md)")
        ->type_name("NAME");
    addNumber(cmd, "--duration", o->duration, kDurationSeconds, "S", "run this long (default: until SIGINT/SIGTERM)");
    addNumber(cmd, "--interval", o->intervalMs, { 10, 60'000 }, "MS", "control interval (default 100)");
    cmd.add_option("--signal-cmd", o->signalCmd,
           "a command printing the external signal's value, run every interval (killed after the interval)")
        ->type_name("CMD");
    addNumber(cmd, "--min-ways", o->minWays, { 1, 64, true }, "N", "never fewer best-effort ways (default 1)");
    addNumber(cmd, "--mba-floor", o->mbaFloor, { 0, 1e6, true }, "V",
        "never a lower best-effort MB value, in the machine's unit (default: its minimum)");
    addNumber(cmd, "--max-writes", o->maxWrites, { 1, 1000 }, "N", "schemata writes per second at most (default 10)");
    cmd.add_flag("--realtime", o->realtime, "simulated sources: run in real time (default: as fast as possible)");
    cmd.add_flag("--json", o->json, "one JSON object (docs/PROTECT.md)");
    cmd.add_option("--compare", o->compare,
           "the lab: run these policies (comma-separated) on the same simulated scenario and compare them")
        ->type_name("POLICIES");
    addNumber(
        cmd, "--seed", o->seed, { 0, 1e9, true }, "N", "the lab: the scenario variant (default 1; 0: as written)");
    cmd.add_option("--record", o->record, "record the run into this session file (protect markers)")->type_name("FILE");
    cmd.add_flag("--force", o->force, "with --record: replace FILE if it is a session file");
    cmd.add_flag("--trace", o->trace, "print every interval's signal, slack and knobs on stderr");
    cmd.footer("SIGINT/SIGTERM stop protect and write the start allocation back. Method: docs/PROTECT.md.");
    return [o] {
        if (!o->compare.empty()) {
            if (o->record) {
                std::fprintf(stderr, "rdtscope-cli protect: --record records one policy's run, not the lab\n");
                return static_cast<int>(ExitUsage);
            }
            return runLabCommand(*o);
        }
        return runProtectCommand(*o);
    };
}

} // namespace rdt::cli

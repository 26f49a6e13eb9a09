// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli pmu tma|lbr|mem: live TMA fractions, LBR call edges, PEBS load latency, from the real PMU (perf) or
// the simulated one (sim). A perf_event_open that cannot work here becomes advice and exit code 3.
#include "Args.h"
#include "Commands.h"
#include "pmu/BranchGraph.h"
#include "pmu/CorePmus.h"
#include "pmu/EventEncoder.h"
#include "pmu/LoadLatency.h"
#include "pmu/PerfSession.h"
#include "pmu/PmuCpuid.h"
#include "pmu/PmuText.h"
#include "pmu/Recipes.h"
#include "pmu/SimMachineMemory.h"
#include "pmu/SimPmu.h"
#include "pmu/Symbolizer.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"

#include <chrono>
#include <cstdio>
#include <thread>

namespace rdt::cli {

using namespace rdt::pmu;

namespace {

using Clock = std::chrono::steady_clock;

const char* kUsage
    = "usage: rdtscope-cli pmu tma|lbr|mem [--source perf|sim] [--pid N]... [--system-wide] "
      "[--duration S] [--interval S]\n"
      "                        [--mode any|callstack] [--ldlat N] [--top N] [--memory-scale X] "
      "[-- COMMAND ARGS...]\n"
      "  tma   Top-down breakdown per interval (level 2 where the PMU has it)\n"
      "  lbr   hottest call edges from LBR (any-branch: counts, mispredict rate, cycles; callstack: "
      "self/inclusive)\n"
      "  mem   PEBS load latency: histogram by data source, top functions and 64-byte lines\n"
      "  --source defaults to perf when a target (--pid, --system-wide, -- COMMAND) is given, else sim.\n"
      "  --memory-scale (sim only) multiplies the simulated program's working sets.\n"
      "  --machine PRESET (sim only) serves loads from that simulated machine's caches (e.g. skx-6154).\n";

enum class Kind { Tma, Lbr, Mem };

struct Options {
    Kind kind = Kind::Tma;
    double duration = 5, interval = 1;
    bool callStack = false;
    unsigned ldlat = 30;
    std::size_t top = 10;
    double memoryScale = 1;
    bool kernel = false;
    std::string machine; ///< sim: a SimMachine preset whose caches serve the loads
};

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

void printFinal(const Options& o, BranchGraph* graph, LoadLatency* mem, Symbolizer& symbols)
{
    if (graph) std::printf("\n%s", branchGraphText(graph->report(symbols), !o.callStack, o.top).c_str());
    if (mem) std::printf("\n%s", loadLatencyText(mem->report(symbols, o.top), o.top).c_str());
}

void printRingStats(const RingStats& s, std::uint64_t decodeErrors)
{
    std::printf("\nring: %llu records, %llu lost (PERF_RECORD_LOST), %llu lost samples, %llu throttles, %llu overruns, "
                "%llu decode errors\n",
        static_cast<unsigned long long>(s.records), static_cast<unsigned long long>(s.lostEvents),
        static_cast<unsigned long long>(s.lostSamples), static_cast<unsigned long long>(s.throttles),
        static_cast<unsigned long long>(s.overruns), static_cast<unsigned long long>(decodeErrors));
}

int runSim(const Options& o)
{
    SimPmuConfig cfg;
    cfg.capture = o.kind == Kind::Tma ? SimCapture::Tma
        : o.kind == Kind::Mem         ? SimCapture::LoadLatency
        : o.callStack                 ? SimCapture::LbrCallStack
                                      : SimCapture::LbrAny;
    cfg.ldlat = o.ldlat;
    cfg.memoryScale = o.memoryScale;
    std::unique_ptr<sim::SimMachine> machine;
    std::unique_ptr<SimMemoryModel> memory;
    if (!o.machine.empty()) { // the simulated machine's caches instead of the PMU's own small hierarchy
        auto cpuid = sim::presetCpuid(o.machine);
        auto m = cpuid ? sim::SimMachine::create(*cpuid) : Result<std::unique_ptr<sim::SimMachine>>(cpuid.error());
        if (!m) {
            std::fprintf(stderr, "rdtscope-cli pmu: %s\n", m.error().toString().c_str());
            return ExitUsage;
        }
        machine = std::move(*m);
        memory = std::make_unique<SimMachineMemory>(*machine, std::vector<unsigned> { 0, 1 });
    }
    auto sim = SimPmu::create(cfg, std::move(memory));
    if (!sim) {
        std::fprintf(stderr, "rdtscope-cli pmu: %s\n", sim.error().toString().c_str());
        return ExitFailure;
    }
    std::printf("SIMULATED: a Sapphire Rapids-class core running rdtscope's synthetic request server (not this "
                "machine)\nrecipe: %s\ncaches: %s\n\n",
        sim->recipe().description.c_str(),
        o.machine.empty() ? "the PMU's own L1/L2/L3 model" : ("simulated machine " + o.machine).c_str());
    RecordDecoder decoder;
    sim->addEventsTo(decoder);
    Symbolizer symbols;
    sim->registerSymbols(symbols);
    auto view = RingReader::viewOfMapping(sim->ring().base(), sim->ring().mapSize(), sim->ring().pageSize());
    auto reader = view ? RingReader::create(*view) : Result<RingReader>(view.error());
    if (!reader) {
        std::fprintf(stderr, "rdtscope-cli pmu: %s\n", reader.error().toString().c_str());
        return ExitFailure;
    }
    BranchGraph graph(o.callStack ? BranchGraph::Mode::CallStack : BranchGraph::Mode::AnyBranch);
    LoadLatency mem;
    DecodedRecord scratch;
    auto consume = [&](const DecodedRecord& r) {
        symbols.onRecord(r);
        if (r.kind != RecordKind::Sample) return;
        if (o.kind == Kind::Lbr)
            graph.add(r.sample);
        else
            mem.add(r.sample);
    };
    if (o.kind == Kind::Tma) std::printf("%s", tmaHeader(true).c_str());
    const auto t0 = Clock::now();
    auto nextReport = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.interval));
    const std::uint64_t readFormat = sim->recipe().events[0].attr.readFormat;
    TmaIntervals intervals;
    if (auto first = parseReadFormat(sim->readGroup(), readFormat)) intervals.start(*first);
    auto breakdown = [&](const ReadData& d) { return tmaFromGroupRead(sim->recipe(), d); };
    while (seconds(t0, Clock::now()) < o.duration) {
        // Simulate in slices so the wall clock paces the output; the ring is drained after each slice.
        sim->run(1'000'000);
        reader->drainDecoded(decoder, scratch, consume);
        if (Clock::now() < nextReport) continue;
        nextReport += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.interval));
        const double t = seconds(t0, Clock::now());
        if (o.kind == Kind::Tma) {
            if (auto now = parseReadFormat(sim->readGroup(), readFormat))
                std::printf("%s",
                    tmaRow(t, intervals.add(static_cast<std::uint64_t>(t * 1e9), *now, breakdown).breakdown).c_str());
        } else if (o.kind == Kind::Lbr) {
            std::printf("  %6.2f s  %llu samples\n", t, static_cast<unsigned long long>(graph.samples()));
        } else {
            std::printf("  %6.2f s  %llu load samples\n", t, static_cast<unsigned long long>(mem.samples()));
        }
        std::fflush(stdout);
    }
    if (o.kind == Kind::Tma) {
        std::printf("%s", tmaRow("total", intervals.total()).c_str());
        std::printf("\nsimulated %.1f ms of CPU time\n", sim->truth().cycles / cfg.ghz / 1e6);
        return ExitOk;
    }
    printFinal(o, o.kind == Kind::Lbr ? &graph : nullptr, o.kind == Kind::Mem ? &mem : nullptr, symbols);
    printRingStats(reader->stats(), reader->decodeErrors());
    std::printf("(simulated data)\n");
    return ExitOk;
}

/// Why the hardware capture cannot run here: the recipe's reason plus what the kernel says to a plain
/// hardware event, so a VM without a PMU is named as such.
int unavailable(const char* what, const Error& reason, PerfSyscalls& sys, const PerfEnvironment& env)
{
    std::fprintf(stderr, "rdtscope-cli pmu %s: %s\n", what, reason.toString().c_str());
    EventAttr probe;
    probe.type = TypeHardware;
    probe.config = 0; // cycles
    probe.size = perf::AttrSizeVer8;
    probe.setFlag(EventAttr::FlagDisabled, true);
    probe.setFlag(EventAttr::FlagExcludeKernel, true);
    probe.setFlag(EventAttr::FlagExcludeHv, true);
    auto fd = sys.open(probe, 0, -1, -1, 0);
    if (fd)
        std::fprintf(stderr,
            "  the kernel opens hardware events here, but this CPU model has no %s support we "
            "know how to use\n",
            what);
    else
        std::fprintf(stderr, "  %s\n", openAdvice(fd.error().code, probe, "cycles", env, false).toString().c_str());
    std::fprintf(stderr, "  try the simulated PMU: rdtscope-cli pmu %s --source sim\n", what);
    return ExitUnavailable;
}

int runPerf(const Options& o, const Args& args)
{
    const char* what = o.kind == Kind::Tma ? "tma" : o.kind == Kind::Lbr ? "lbr" : "mem";
    LinuxPerfSyscalls sys;
    const PerfEnvironment env = sys.environment();
    // One part per core PMU: cpu_core and cpu_atom on hybrid parts (each its own recipe, type and CPUs), as perf
    // opens every hardware event once per core PMU.
    auto parts = corePmuParts(env);
    if (!parts) return unavailable(what, parts.error(), sys, env);
    const PmuCpuid cpuid = readPmuCpuid();
    RecipeOptions ro = hostRecipeOptions(env, cpuid);
    ro.kernel = o.kernel;
    ro.ldlat = o.ldlat;
    const RecipeKind kind = o.kind == Kind::Tma ? RecipeKind::Tma
        : o.kind == Kind::Mem                   ? RecipeKind::LoadLatency
        : o.callStack                           ? RecipeKind::LbrCallStack
                                                : RecipeKind::LbrAny;
    auto built = recipesForParts(*parts, kind, ro);
    if (!built) return unavailable(what, built.error(), sys, env);
    PerfTarget target;
    for (const auto& p : args.values("pid"))
        target.pids.push_back(static_cast<pid_t>(std::atoi(p.c_str())));
    target.command = args.trailing();
    target.systemWide = args.has("system-wide");
    auto sessions = openSessions(sys, built->recipes, target); // a command is forked once for every PMU's recipe
    if (!sessions) {
        std::fprintf(stderr, "rdtscope-cli pmu %s: %s\n", what, sessions.error().toString().c_str());
        const int e = sessions.error().code;
        return e == EACCES || e == EPERM || e == ENOENT || e == ENODEV || e == EOPNOTSUPP || e == EINVAL
            ? ExitUnavailable
            : ExitFailure;
    }
    auto& all = *sessions;
    Symbolizer symbols;
    for (pid_t p : target.pids)
        (void)symbols.loadProcMaps(static_cast<std::uint32_t>(p));
    (void)symbols.loadKallsyms();
    for (auto& s : all)
        if (auto st = s->start(); !st) {
            std::fprintf(stderr, "rdtscope-cli pmu %s: %s\n", what, st.error().toString().c_str());
            return ExitFailure;
        }
    std::printf("source: perf, PMUs used: %s\n", describeParts(*parts).c_str());
    for (const auto& s : all)
        std::printf("recipe%s: %s\n", s->recipe().pmuLabel.empty() ? "" : (" " + s->recipe().pmuLabel).c_str(),
            s->recipe().description.c_str());
    for (const auto& note : built->notes) // a PMU left out, e.g. E-core TMA on an unverified model
        std::printf("note: %s\n", note.c_str());
    for (const auto& s : all)
        for (const auto& note : s->notes()) // e.g. "precise_ip lowered to 1 ...: the PMU refused 2"
            std::printf("note: %s\n", note.c_str());
    if (o.kind == Kind::Lbr && cpuid.lbrDepth) std::printf("architectural LBR depth: %u (CPUID.1CH)\n", cpuid.lbrDepth);
    std::printf("\n");
    // Samples of every PMU go to the same aggregators (each session's decoder knows its own attrs and ids).
    BranchGraph graph(o.callStack ? BranchGraph::Mode::CallStack : BranchGraph::Mode::AnyBranch);
    LoadLatency mem;
    auto consume = [&](const DecodedRecord& r) {
        symbols.onRecord(r);
        if (r.kind == RecordKind::Sample) o.kind == Kind::Lbr ? graph.add(r.sample) : mem.add(r.sample);
    };
    const auto t0 = Clock::now();
    // TMA: one breakdown per PMU, each with its own interval history.
    std::vector<TmaIntervals> intervals(all.size());
    if (o.kind == Kind::Tma)
        for (std::size_t i = 0; i < all.size(); ++i) {
            ReadData zero;
            zero.values.resize(all[i]->recipe().events.size());
            intervals[i].start(zero);
        }
    auto header = [&](std::size_t i) {
        const Recipe& r = all[i]->recipe();
        if (!r.pmuLabel.empty()) std::printf("%s\n", r.pmuLabel.c_str());
        std::printf("%s", tmaHeader(r.tma == TmaModel::SapphireRapids).c_str());
    };
    auto readTma = [&](double t, bool print) -> bool {
        for (std::size_t i = 0; i < all.size(); ++i) {
            auto now = all[i]->readGroups();
            if (!now) {
                std::fprintf(stderr, "rdtscope-cli pmu tma: %s\n", now.error().toString().c_str());
                return false;
            }
            const Recipe& r = all[i]->recipe();
            const TmaInterval& iv = intervals[i].add(
                static_cast<std::uint64_t>(t * 1e9), *now, [&](const ReadData& d) { return tmaFromGroupRead(r, d); });
            if (!print) continue;
            if (all.size() > 1) { // the interval column names the PMU: "1.00s P" / "1.00s E"
                char label[32];
                std::snprintf(label, sizeof label, "%5.2fs %s", t, r.pmuName == "cpu_atom" ? "E" : "P");
                std::printf("%s", tmaRow(std::string(label), iv.breakdown).c_str());
            } else {
                std::printf("%s", tmaRow(t, iv.breakdown).c_str());
            }
        }
        return true;
    };
    if (o.kind == Kind::Tma) {
        if (all.size() > 1) std::printf("rows: P = P-cores (cpu_core), E = E-cores (cpu_atom)\n");
        header(0);
    }
    auto anyExited = [&] {
        for (auto& s : all)
            if (s->childExited()) return true;
        return false;
    };
    double nextReport = o.interval;
    while (seconds(t0, Clock::now()) < o.duration && !anyExited()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        for (auto& s : all)
            s->drain(consume);
        const double t = seconds(t0, Clock::now());
        if (t < nextReport) continue;
        nextReport += o.interval;
        if (o.kind == Kind::Tma && !readTma(t, true)) return ExitFailure;
        std::fflush(stdout);
    }
    for (auto& s : all) {
        (void)s->stop();
        s->drain(consume);
    }
    if (o.kind == Kind::Tma) {
        (void)readTma(seconds(t0, Clock::now()), false);
        std::printf("\n");
        for (std::size_t i = 0; i < all.size(); ++i) {
            header(i);
            std::printf("%s", tmaRow("total", intervals[i].total()).c_str());
        }
        return ExitOk;
    }
    printFinal(o, o.kind == Kind::Lbr ? &graph : nullptr, o.kind == Kind::Mem ? &mem : nullptr, symbols);
    for (const auto& s : all) {
        if (all.size() > 1) std::printf("\n%s", s->recipe().pmuLabel.c_str());
        printRingStats(s->ringStats(), s->decodeErrors());
    }
    return ExitOk;
}

} // namespace

int cmdPmu(const std::vector<std::string>& argv)
{
    auto args = Args::parse(argv,
        { "source", "pid", "duration", "interval", "mode", "ldlat", "top", "memory-scale", "machine" },
        { "system-wide", "kernel", "help" });
    if (!args) {
        std::fprintf(stderr, "rdtscope-cli pmu: %s\n%s", args.error().toString().c_str(), kUsage);
        return ExitUsage;
    }
    if (args->has("help")) {
        std::printf("%s", kUsage);
        return ExitOk;
    }
    Options o;
    const auto& pos = args->positionals();
    if (pos.size() != 1 || (pos[0] != "tma" && pos[0] != "lbr" && pos[0] != "mem")) {
        std::fprintf(stderr, "rdtscope-cli pmu: say which capture: tma, lbr or mem\n%s", kUsage);
        return ExitUsage;
    }
    o.kind = pos[0] == "tma" ? Kind::Tma : pos[0] == "lbr" ? Kind::Lbr : Kind::Mem;
    auto duration = args->number("duration", 5);
    auto interval = args->number("interval", 1);
    auto ldlat = args->number("ldlat", 30);
    auto top = args->number("top", 10);
    auto scale = args->number("memory-scale", 1);
    for (const auto* r : { &duration, &interval, &ldlat, &top, &scale })
        if (!*r) {
            std::fprintf(stderr, "rdtscope-cli pmu: %s\n", r->error().toString().c_str());
            return ExitUsage;
        }
    o.duration = *duration;
    o.interval = *interval > 0.05 ? *interval : 0.05;
    o.ldlat = static_cast<unsigned>(*ldlat);
    o.top = static_cast<std::size_t>(*top);
    o.memoryScale = *scale;
    o.kernel = args->has("kernel");
    o.machine = args->valueOr("machine", "");
    const std::string mode = args->valueOr("mode", "any");
    if (mode != "any" && mode != "callstack") {
        std::fprintf(stderr, "rdtscope-cli pmu: --mode is any or callstack\n");
        return ExitUsage;
    }
    o.callStack = mode == "callstack";
    const bool hasTarget = args->has("pid") || args->has("system-wide") || !args->trailing().empty();
    const std::string source = args->valueOr("source", hasTarget ? "perf" : "sim");
    if (source == "sim") {
        if (hasTarget) {
            std::fprintf(stderr,
                "rdtscope-cli pmu: the simulated PMU runs its own program; drop --pid/--system-wide/"
                "COMMAND or use --source perf\n");
            return ExitUsage;
        }
        return runSim(o);
    }
    if (source != "perf") {
        std::fprintf(stderr, "rdtscope-cli pmu: --source is perf or sim\n");
        return ExitUsage;
    }
    if (!hasTarget) {
        std::fprintf(stderr, "rdtscope-cli pmu: --source perf needs --pid N, --system-wide or -- COMMAND\n");
        return ExitUsage;
    }
    return runPerf(o, *args);
}

} // namespace rdt::cli

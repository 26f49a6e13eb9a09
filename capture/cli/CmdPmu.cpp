// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli pmu tma|lbr|mem: live TMA fractions, LBR call edges, PEBS load latency, from the real PMU (perf) or
// the simulated one (sim). A perf_event_open that cannot work here becomes advice and exit code 3.
#include "CmdRdtSource.h"
#include "Commands.h"
#include "Options.h"
#include "core/IdList.h"
#include "engine/CaptureService.h"
#include "pmu/PmuText.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace rdt::cli {

using namespace rdt::pmu;

namespace {

using Clock = std::chrono::steady_clock;

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
    std::string program; ///< sim: the synthetic program ("" = the request server)
    bool simulated = false;
};

/// The command line as declared; runPmu turns it into Options and a capture request.
struct PmuArgs {
    std::string kind, source, mode = "any", machine, program;
    std::vector<std::string> pids;
    bool systemWide = false, kernel = false;
    double duration = 5, interval = 1, ldlat = 30, top = 10, memoryScale = 1;
    std::vector<std::string> command;
};

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

void printRingStats(const RingStats& s, std::uint64_t decodeErrors)
{
    std::printf("\nring: %llu records, %llu lost (PERF_RECORD_LOST), %llu lost samples, %llu throttles, %llu overruns, "
                "%llu decode errors\n",
        static_cast<unsigned long long>(s.records), static_cast<unsigned long long>(s.lostEvents),
        static_cast<unsigned long long>(s.lostSamples), static_cast<unsigned long long>(s.throttles),
        static_cast<unsigned long long>(s.overruns), static_cast<unsigned long long>(decodeErrors));
}

/// The final tables of an LBR or load-latency capture, functions named by the service.
void printFinal(const Options& o, const engine::PmuReport& r)
{
    if (r.branches) std::printf("\n%s", branchGraphText(*r.branches, !o.callStack, o.top).c_str());
    if (r.loads) std::printf("\n%s", loadLatencyText(*r.loads, o.top).c_str());
}

const char* what(const Options& o)
{
    return o.kind == Kind::Tma ? "tma" : o.kind == Kind::Lbr ? "lbr" : "mem";
}

/// Why a capture did not start, with the exit code that fits (3 when the PMU cannot do it here).
int startFailure(const Options& o, const engine::PmuStarted& s)
{
    const std::string text = s.result.toString();
    switch (s.failure) {
    case engine::PmuFailure::BadRequest:
        std::fprintf(stderr, "rdtscope-cli pmu: %s\n", text.c_str());
        return ExitUsage;
    case engine::PmuFailure::Unavailable:
        std::fprintf(stderr, "rdtscope-cli pmu %s: %s\n", what(o), text.c_str());
        for (const auto& n : s.result.notes)
            std::fprintf(stderr, "  %s\n", n.c_str());
        std::fprintf(stderr, "  try the simulated PMU: rdtscope-cli pmu %s --source sim\n", what(o));
        return ExitUnavailable;
    case engine::PmuFailure::Open: {
        std::fprintf(stderr, "rdtscope-cli pmu %s: %s\n", what(o), text.c_str());
        const int e = s.result.code;
        return e == EACCES || e == EPERM || e == ENOENT || e == ENODEV || e == EOPNOTSUPP || e == EINVAL
            ? ExitUnavailable
            : ExitFailure;
    }
    default:
        std::fprintf(stderr, o.simulated ? "rdtscope-cli pmu: %s\n" : "rdtscope-cli pmu %s: %s\n",
            o.simulated ? text.c_str() : what(o), text.c_str());
        return ExitFailure;
    }
}

void printHeader(const Options& o, const engine::PmuCaptureInfo& info)
{
    if (o.simulated) {
        const char* program = o.program == "frontend" ? "synthetic interpreter (frontend bound)"
            : o.program == "backend"                  ? "synthetic hash join (backend bound)"
                                                      : "synthetic request server";
        std::printf("SIMULATED: a %s running rdtscope's %s (not this machine)\nrecipe: %s\n"
                    "caches: %s\n\n",
            info.pmusUsed.substr(info.pmusUsed.rfind("simulated ", 0) == 0 ? 10 : 0).c_str(), program,
            info.parts[0].description.c_str(), info.caches.c_str());
        return;
    }
    std::printf("source: perf, PMUs used: %s\n", info.pmusUsed.c_str());
    for (const auto& p : info.parts)
        std::printf("recipe%s: %s\n", p.pmuLabel.empty() ? "" : (" " + p.pmuLabel).c_str(), p.description.c_str());
    for (const auto& note : info.notes) // a PMU left out, a precise_ip the PMU lowered, ...
        std::printf("note: %s\n", note.c_str());
    if (o.kind == Kind::Lbr && info.lbrDepth) std::printf("architectural LBR depth: %u (CPUID.1CH)\n", info.lbrDepth);
    std::printf("\n");
}

void printTmaHeader(const engine::PmuPartInfo& p)
{
    if (!p.pmuLabel.empty()) std::printf("%s\n", p.pmuLabel.c_str());
    std::printf("%s", tmaHeader(p.levelTwoTma).c_str());
}

/// One capture through the service, real (perf) or simulated; the wall clock paces the output.
int runCapture(const Options& o, engine::PmuRequest request)
{
    int exitCode = ExitOk;
    auto service = openPmuEngineForCli(exitCode); // local, or the agent's with --connect
    if (!service) return exitCode;
    auto& svc = **service;
    const auto started = svc.startPmu(request);
    if (!started.result.ok) return startFailure(o, started);
    const auto& info = started.info;
    const std::uint32_t id = info.id;
    printHeader(o, info);
    const bool hybrid = info.parts.size() > 1;
    if (o.kind == Kind::Tma) {
        if (hybrid) std::printf("rows: P = P-cores (cpu_core), E = E-cores (cpu_atom)\n");
        printTmaHeader(info.parts[0]);
    }
    auto printTmaRows = [&](const engine::PmuBatch& b) {
        for (const auto& row : b.tma) {
            if (hybrid) { // the interval column names the PMU: "1.00s P" / "1.00s E"
                char label[32];
                std::snprintf(label, sizeof label, "%5.2fs %s", row.seconds,
                    info.parts[row.part].pmuName == "cpu_atom" ? "E" : "P");
                std::printf("%s", tmaRow(std::string(label), row.breakdown).c_str());
            } else {
                std::printf("%s", tmaRow(row.seconds, row.breakdown).c_str());
            }
        }
    };
    const auto t0 = Clock::now();
    double nextReport = o.interval;
    std::uint64_t samples = 0;
    while (seconds(t0, Clock::now()) < o.duration && !svc.pmuFinished(id)) {
        // The simulated PMU runs in slices; perf rings are drained every 50 ms.
        if (!o.simulated) svc.waitUntil(Clock::now() + std::chrono::milliseconds(50)); // a remote one stays alive
        (void)svc.pumpPmu(id);
        for (const auto& b : svc.drainPmuBatches())
            samples = b.samples;
        const double t = seconds(t0, Clock::now());
        if (t < nextReport) continue;
        nextReport += o.interval;
        if (o.kind == Kind::Tma) {
            if (auto r = svc.readPmuCounters(id); !r.ok) {
                std::fprintf(stderr, "rdtscope-cli pmu tma: %s\n", r.toString().c_str());
                return ExitFailure;
            }
            for (const auto& b : svc.drainPmuBatches())
                printTmaRows(b);
        } else if (o.simulated) {
            std::printf("  %6.2f s  %llu %s\n", t, static_cast<unsigned long long>(samples),
                o.kind == Kind::Lbr ? "samples" : "load samples");
        }
        std::fflush(stdout);
    }
    (void)svc.stopPmu(id);
    auto report = svc.pmuReport(id, o.top);
    if (!report) {
        std::fprintf(stderr, "rdtscope-cli pmu %s: %s\n", what(o), report.error().toString().c_str());
        return ExitFailure;
    }
    if (o.kind == Kind::Tma) {
        if (o.simulated) {
            std::printf("%s", tmaRow("total", report->tmaTotals.at(0)).c_str());
            std::printf("\nsimulated %.1f ms of CPU time\n", report->simulatedCpuMs);
            return ExitOk;
        }
        std::printf("\n");
        for (std::size_t i = 0; i < info.parts.size() && i < report->tmaTotals.size(); ++i) {
            printTmaHeader(info.parts[i]);
            std::printf("%s", tmaRow("total", report->tmaTotals[i]).c_str());
        }
        return ExitOk;
    }
    printFinal(o, *report);
    for (const auto& p : report->parts) {
        if (report->parts.size() > 1) std::printf("\n%s", p.pmuLabel.c_str());
        printRingStats(p.ring, p.decodeErrors);
    }
    if (o.simulated) std::printf("(simulated data)\n");
    return ExitOk;
}

int runPmu(const PmuArgs& a)
{
    Options o;
    o.kind = a.kind == "tma" ? Kind::Tma : a.kind == "lbr" ? Kind::Lbr : Kind::Mem;
    const auto& typed = commandArguments();
    if (!a.command.empty() && std::find(typed.begin(), typed.end(), "--") == typed.end()) {
        std::fprintf(stderr, "rdtscope-cli pmu: the command to profile goes after --: pmu %s -- %s\n", a.kind.c_str(),
            a.command.front().c_str());
        return ExitUsage;
    }
    o.duration = a.duration;
    o.interval = a.interval > 0.05 ? a.interval : 0.05;
    o.ldlat = static_cast<unsigned>(a.ldlat);
    o.top = static_cast<std::size_t>(a.top);
    o.memoryScale = a.memoryScale;
    o.kernel = a.kernel;
    o.machine = a.machine;
    o.program = a.program;
    o.callStack = a.mode == "callstack";
    const bool hasTarget = !a.pids.empty() || a.systemWide || !a.command.empty();
    const std::string source = a.source.empty() ? (hasTarget ? "perf" : "sim") : a.source;
    engine::PmuRequest request;
    request.kind = o.kind == Kind::Tma ? engine::PmuCaptureKind::Tma
        : o.kind == Kind::Mem          ? engine::PmuCaptureKind::LoadLatency
        : o.callStack                  ? engine::PmuCaptureKind::LbrCallStack
                                       : engine::PmuCaptureKind::LbrAny;
    request.ldlat = o.ldlat;
    request.kernel = o.kernel;
    request.memoryScale = o.memoryScale;
    request.machine = o.machine;
    request.program = a.program;
    if (source == "sim") {
        if (hasTarget) {
            std::fprintf(stderr,
                "rdtscope-cli pmu: the simulated PMU runs its own program; drop --pid/--system-wide/"
                "COMMAND or use --source perf\n");
            return ExitUsage;
        }
        o.simulated = request.simulated = true;
        return runCapture(o, request);
    }
    if (!hasTarget) {
        std::fprintf(stderr, "rdtscope-cli pmu: --source perf needs --pid N, --system-wide or -- COMMAND\n");
        return ExitUsage;
    }
    for (const auto& p : a.pids) {
        // One PID list rule for every command (core/IdList): "abc" or "-1" is an error, never PID 0 (ourselves).
        auto pids = parseIdList(p, pidBound());
        if (!pids || pids->empty()) {
            std::fprintf(stderr, "rdtscope-cli pmu: --pid %s: %s\n", p.c_str(),
                pids ? "needs a process id" : pids.error().toString().c_str());
            return ExitUsage;
        }
        for (unsigned pid : *pids)
            request.pids.push_back(pid);
    }
    request.command = a.command;
    request.systemWide = a.systemWide;
    return runCapture(o, request);
}

} // namespace

CommandRun definePmu(CLI::App& cmd)
{
    cmd.footer("  tma   Top-down breakdown per interval (level 2 where the PMU has it)\n"
               "  lbr   hottest call edges from LBR (any-branch: counts, mispredict rate, cycles; callstack:\n"
               "        self/inclusive)\n"
               "  mem   PEBS load latency: histogram by data source, top functions and 64-byte lines\n"
               "A perf_event_open that cannot work here is explained, with exit code 3.");
    auto a = std::make_shared<PmuArgs>();
    cmd.add_option("KIND", a->kind, "which capture")
        ->type_name("tma|lbr|mem")
        ->required()
        ->check(CLI::IsMember({ "tma", "lbr", "mem" }).description(""));
    cmd.add_option("--source", a->source,
           "defaults to perf when a target (--pid, --system-wide, -- COMMAND) is\ngiven, else sim")
        ->type_name("perf|sim")
        ->check(CLI::IsMember({ "perf", "sim" }).description(""));
    cmd.add_option("--pid", a->pids, "profile these processes (repeatable; a list like 10,12-14)")
        ->type_name("N")
        ->take_all()
        ->check(CLI::Validator(
            [](std::string& text) {
                // One PID list rule for every command (core/IdList): "abc" or "-1" is an error, never PID 0.
                auto pids = parseIdList(text, pidBound());
                return !pids ? pids.error().toString() : pids->empty() ? "needs a process id" : std::string();
            },
            ""));
    cmd.add_flag("--system-wide", a->systemWide, "profile every CPU");
    addNumber(cmd, "--duration", a->duration, kDurationSeconds, "S", "capture for S seconds (default 5)");
    addNumber(cmd, "--interval", a->interval, { 0.001, 3600 }, "S", "seconds between TMA rows (default 1)");
    cmd.add_option("--mode", a->mode, "LBR mode (default any)")
        ->type_name("any|callstack")
        ->check(CLI::IsMember({ "any", "callstack" }).description(""));
    // MSR_PEBS_LD_LAT_THRESHOLD holds a 16-bit latency (SDM 20.3.4.4.2).
    addNumber(cmd, "--ldlat", a->ldlat, { 1, 65535, true }, "N", "load latency threshold in cycles (default 30)");
    addNumber(cmd, "--top", a->top, kTopRows, "N", "rows per table (default 10)");
    addNumber(cmd, "--memory-scale", a->memoryScale, { 0.01, 100 }, "X",
        "sim only: multiplies the simulated program's working sets");
    cmd.add_option("--machine", a->machine,
           "sim only: that simulated machine's caches serve the loads and its CPU\n"
           "generation is the PMU's (e.g. skx-6154)")
        ->type_name("PRESET");
    cmd.add_option("--program", a->program,
           "sim only: the synthetic program (default server: a request server;\n"
           "frontend: an interpreter; backend: a hash join)")
        ->type_name("server|frontend|backend")
        ->check(CLI::IsMember({ "server", "frontend", "backend" }).description(""));
    cmd.add_flag("--kernel", a->kernel, "count kernel code too");
    cmd.add_option("COMMAND", a->command, "the command to start and profile (everything after --)")
        ->type_name("-- COMMAND ARGS...");
    return [a] { return runPmu(*a); };
}

} // namespace rdt::cli

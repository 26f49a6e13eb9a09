// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli record -o FILE [--source SRC] [--scenario NAME] [--duration S] [--interval MS]: samples an RDT
// source into a session file (docs/SESSION-FORMAT.md) until the duration ends or SIGINT/SIGTERM.
#include "Args.h"
#include "CmdRdtSource.h"
#include "CmdSession.h"
#include "Commands.h"

#include "core/Time.h"
#include "platform/CpuidDump.h"
#include "platform/LiveCpuid.h"
#include "rdt/CounterMath.h"
#include "rdt/Sampler.h"
#include "session/Recorder.h"
#include "session/StateWatcher.h"
#include "session/StopSignals.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace rdt::cli {

namespace {

const char* const kRecordHelp = R"(usage: rdtscope-cli record -o FILE [--source SRC] [--scenario NAME] [--duration S]
                           [--interval MS] [--realtime] [--force]

Records RDT monitoring samples, allocation changes and group membership into a session file (SQLite; see
docs/SESSION-FORMAT.md). One transaction every 500 ms: a killed recorder loses at most the last 500 ms.
Ctrl-C / SIGTERM stop cleanly. A full disk stops the recording with a message; what was written is kept.
  -o, --output FILE  session file to create (refuses to overwrite without --force)
  --source SRC       auto (default), sim, sim-msr, resctrl[:PATH], msr
  --scenario NAME    simulator scenario (default noisy-neighbour)
  --duration S       stop after S seconds (default: until Ctrl-C)
  --interval MS      sampling interval (default 100 = 10 Hz)
  --realtime         simulated sources: pace in real time (default with --duration: as fast as possible,
                     recording simulated time)
Sessions from the simulator are labelled SIMULATED in the file and everywhere they are shown.
Exit codes: 0 recorded, 1 failed (write error: what was written is kept), 2 usage, 3 source unavailable.
)";

std::string hostName()
{
    char buf[256] = {};
    return ::gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string();
}

std::string kernelText()
{
    utsname u {};
    if (::uname(&u) != 0) return {};
    return std::string(u.sysname) + " " + u.release + " " + u.version + " " + u.machine;
}

std::string capabilityText(const Capabilities& caps)
{
    std::string t;
    for (const auto& r : caps.resources) {
        t += r.name + ": " + std::to_string(r.numClosids) + " CLOS, domains";
        for (int d : r.domains)
            t += " " + std::to_string(d);
        if (r.isCache())
            t += ", cbm_mask " + std::to_string(r.cbmBits) + " bits, min_cbm_bits " + std::to_string(r.minCbmBits);
        else
            t += ", min_bandwidth " + std::to_string(r.minBandwidth) + ", bandwidth_gran "
                + std::to_string(r.bandwidthGran);
        t += "\n";
    }
    const auto& m = caps.monitoring;
    if (m.present) {
        t += "L3_MON: " + std::to_string(m.numRmids) + " RMIDs, counter width " + std::to_string(m.counterWidth)
            + ", domains";
        for (int d : m.domains)
            t += " " + std::to_string(d);
        t += "\n";
    }
    return t;
}

} // namespace

int cmdRecord(const std::vector<std::string>& argvIn)
{
    auto parsed = Args::parse(expandShortOutput(argvIn), { "output", "source", "scenario", "duration", "interval" },
        { "realtime", "force", "help" });
    if (parsed && parsed->has("help")) {
        std::fputs(kRecordHelp, stdout);
        return ExitOk;
    }
    if (!parsed || !parsed->has("output") || !parsed->positionals().empty()) {
        std::fprintf(stderr, "rdtscope-cli record: %s\n%s",
            parsed ? "-o FILE is required (and takes no other arguments)" : parsed.error().toString().c_str(),
            kRecordHelp);
        return ExitUsage;
    }
    const Args& args = *parsed;
    auto durationS = args.number("duration", -1, kDurationSeconds);
    auto intervalMs = args.number("interval", 100, kIntervalMs);
    if (!durationS || !intervalMs) {
        std::fprintf(
            stderr, "rdtscope-cli record: %s\n", (!durationS ? durationS : intervalMs).error().toString().c_str());
        return ExitUsage;
    }
    const std::string path = *args.value("output");

    int code = 0;
    auto source = openSourceForCli(args, code);
    if (!source) return code;
    RdtBackend& backend = *source->backend;
    SimulationControl* sim = source->simulation.get();
    auto caps = backend.capabilities();
    if (!caps) {
        std::fprintf(stderr, "rdtscope-cli record: %s\n", caps.error().toString().c_str());
        return exitCodeFor(caps.error());
    }
    if (!caps->monitoring.present) {
        std::fprintf(stderr, "rdtscope-cli record: %s has no RDT monitoring (no L3_MON / CPUID.0FH)\n",
            backend.describe().c_str());
        return ExitUnavailable;
    }

    // Poll at least as often as the counter width requires (SDM 20.18.8: one wrap at most between reads).
    std::uint64_t step = static_cast<std::uint64_t>(*intervalMs * 1e6);
    if (const auto maxStep = maxPollIntervalNs(caps->monitoring.counterWidth); step > maxStep) {
        std::fprintf(stderr, "note: interval lowered to %.0f ms so %u-bit counters cannot wrap twice (SDM 20.18.8)\n",
            static_cast<double>(maxStep) * 1e-6, caps->monitoring.counterWidth);
        step = maxStep;
    }
    const bool bounded = args.has("duration");
    const auto durationNs = bounded ? static_cast<std::uint64_t>(*durationS * 1e9) : 0;
    const bool paced = !sim || !bounded || args.has("realtime");
    auto now = [&] { return sim ? sim->nowNs() : monotonicNs(); };

    session::SessionMeta meta;
    meta.startWallNs = wallClockNs();
    meta.host = hostName();
    meta.kernel = kernelText();
    meta.source = source->kind + (sim ? ":" + sim->scenarioName() : std::string());
    meta.simulated = source->simulated;
    meta.toolVersion = RDTSCOPE_VERSION;
    meta.commandLine = "rdtscope-cli record";
    for (const auto& a : argvIn)
        meta.commandLine += " " + a;
    meta.scenario = sim ? sim->scenarioName() : std::string();
    meta.intervalNs = step;
    meta.timeIsSimulated = sim != nullptr;
    session::MachineInfo machine;
    machine.description = sim ? sim->describe() : backend.describe();
    machine.topology = capabilityText(*caps);
    if (!source->simulated) {
        LiveCpuid cpuid;
        machine.cpuidJson = cpuidTableToJson(snapshotCpuid(cpuid));
    } else if (source->simulation) {
        machine.cpuidJson = source->simulation->cpuidJson(); // the simulated CPU, labelled simulated in meta
    }

    // The time axis starts here: setup above (CPUID snapshot, capabilities) does not count.
    meta.startMonoNs = now();
    const std::uint64_t t0 = meta.startMonoNs;
    const auto wall0 = std::chrono::steady_clock::now();
    session::WriterOptions wopt;
    wopt.overwrite = args.has("force");
    auto writer = session::SessionWriter::create(path, meta, machine, wopt);
    if (!writer) {
        std::fprintf(stderr, "rdtscope-cli record: %s\n", writer.error().toString().c_str());
        return ExitFailure;
    }
    session::Recorder recorder(std::move(writer.value()));
    recorder.start();
    session::StopSignals::install();
    // Past a file size limit (ulimit -f) the kernel sends SIGXFSZ, which would kill us mid-transaction; ignored,
    // the write fails with EFBIG instead and the recorder stops with a message, keeping what was committed.
    std::signal(SIGXFSZ, SIG_IGN);

    SamplerConfig cfg;
    cfg.rateHz = 1e9 / static_cast<double>(step);
    Sampler sampler(backend, cfg, sim);
    session::StateWatcher watcher(backend);
    std::uint64_t polls = 0, pollErrors = 0;
    std::string lastPollError;
    auto observe = [&](std::uint64_t t) {
        auto changes = watcher.poll(t);
        for (auto& a : changes.allocations)
            recorder.push(std::move(a));
        for (auto& m : changes.memberships)
            recorder.push(std::move(m));
        // The scenario's lesson notes and timed commands become markers (a failed command says so).
        if (sim) {
            for (auto& e : sim->takeEvents())
                recorder.push(session::Marker {
                    e.timeNs, e.note ? "note" : (e.ok ? "scenario" : "scenario-failed"), std::move(e.text) });
        }
    };
    observe(t0);
    for (std::uint64_t k = 0; !session::StopSignals::requested() && !recorder.failed(); ++k) {
        const std::uint64_t offset = k * step;
        if (bounded && offset > durationNs) break;
        if (paced) std::this_thread::sleep_until(wall0 + std::chrono::nanoseconds(offset));
        if (sim && k > 0) sim->advanceTo(t0 + offset);
        auto batch = sampler.pollOnce(now());
        while (sampler.queue().pop()) { }
        ++polls;
        if (!batch) {
            ++pollErrors;
            lastPollError = batch.error().toString();
            continue;
        }
        recorder.push(std::move(*batch));
        observe(now());
    }
    const int sig = session::StopSignals::which();
    const std::string reason = sig == SIGINT ? "SIGINT"
        : sig == SIGTERM                     ? "SIGTERM"
        : bounded                            ? "duration reached"
                                             : "stopped";
    const Status s = recorder.stop(reason);
    const double recordedS = static_cast<double>(now() - t0) * 1e-9;
    if (pollErrors)
        std::fprintf(stderr, "warning: %llu of %llu polls failed; last: %s\n",
            static_cast<unsigned long long>(pollErrors), static_cast<unsigned long long>(polls), lastPollError.c_str());
    if (recorder.queueDropped())
        std::fprintf(stderr, "warning: %llu items dropped (the recorder fell behind); noted in the file\n",
            static_cast<unsigned long long>(recorder.queueDropped()));
    if (recorder.discarded())
        std::fprintf(stderr, "note: %llu items arrived after the recording stopped and were not written\n",
            static_cast<unsigned long long>(recorder.discarded()));
    if (!s) {
        std::fprintf(stderr, "rdtscope-cli record: %s\n", s.error().toString().c_str());
        return ExitFailure;
    }
    std::fprintf(stderr, "recorded %llu samples, %.3f s of %s time, to %s (%s)%s\n",
        static_cast<unsigned long long>(recorder.committedSamples()), recordedS, sim ? "simulated" : "real",
        path.c_str(), reason.c_str(), source->simulated ? " [SIMULATED]" : "");
    return ExitOk;
}

} // namespace rdt::cli

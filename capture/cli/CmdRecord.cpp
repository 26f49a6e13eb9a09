// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli record -o FILE [--source SRC] [--scenario NAME] [--duration S] [--interval MS]: samples an RDT
// source into a session file (docs/SESSION-FORMAT.md) until the duration ends or SIGINT/SIGTERM; with --metrics it
// serves the same samples to Prometheus while it records.
#include "CmdRdtSource.h"
#include "CmdSession.h"
#include "CmdSessionCreate.h"
#include "Commands.h"

#include "core/Time.h"
#include "engine/EngineRecorder.h"
#include "metrics/MetricsPublisher.h"
#include "metrics/MetricsServer.h"
#include "rdt/CounterMath.h"
#include "session/StopSignals.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>
#include <variant>

namespace rdt::cli {

namespace {

struct RecordOptions {
    std::string output;
    SourceOptions source;
    std::optional<double> duration;
    double intervalMs = 100;
    bool realtime = false, force = false;
    std::string metrics; ///< --metrics [ADDR:]PORT: serve what is recorded to Prometheus too ("" = no)
    std::string webConfig; ///< --web-config FILE: TLS and basic auth for --metrics
};

/// `record --metrics`: the samples being recorded, also served at /metrics (the agent's exposition, one rule).
struct RecordMetrics {
    metrics::MetricsPublisher publisher { RDTSCOPE_VERSION };
    std::unique_ptr<metrics::MetricsServer> server;
};

/// Starts the endpoint before anything is recorded, so a bad address or web configuration fails first.
Result<std::unique_ptr<RecordMetrics>> startMetrics(const RecordOptions& o, const std::pair<std::string, int>& endpoint)
{
    auto options = metrics::metricsServerOptions(endpoint, o.webConfig);
    if (!options) return options.error();
    auto m = std::make_unique<RecordMetrics>();
    m->publisher.publish();
    RecordMetrics* raw = m.get();
    m->server = std::make_unique<metrics::MetricsServer>(*options, [raw] { return raw->publisher.latest(); });
    if (auto st = m->server->start(); !st) return st.error();
    return m;
}

int runRecord(const RecordOptions& o)
{
    const std::string& path = o.output;
    std::pair<std::string, int> endpoint;
    if (!o.metrics.empty()) {
        auto parsed = metrics::parseMetricsEndpoint(o.metrics);
        if (!parsed) {
            std::fprintf(stderr, "rdtscope-cli record: %s\n", parsed.error().toString().c_str());
            return ExitUsage;
        }
        endpoint = *parsed;
    }

    int code = 0;
    // The capture engine: local, or the agent's with --connect (the session is written here either way, with the
    // engine's machine, host name, kernel and CPUID snapshot in its metadata).
    auto service = openServiceForCli(o.source, code);
    if (!service) return code;
    engine::Engine& svc = **service;
    const engine::SourceDescription source = svc.source();
    const bool sim = !source.simulation.empty(); // a simulated machine runs behind the source
    auto machineInfo = svc.machine();
    if (!machineInfo) {
        std::fprintf(stderr, "rdtscope-cli record: %s\n", machineInfo.error().toString().c_str());
        return exitCodeFor(machineInfo.error());
    }
    const Capabilities& caps = machineInfo->capabilities;
    if (!caps.monitoring.present) {
        std::fprintf(
            stderr, "rdtscope-cli record: %s has no RDT monitoring (no L3_MON / CPUID.0FH)\n", source.backend.c_str());
        return ExitUnavailable;
    }

    // Poll at least as often as the counter width requires (SDM 20.18.8: one wrap at most between reads).
    std::uint64_t step = static_cast<std::uint64_t>(o.intervalMs * 1e6);
    if (const auto maxStep = maxPollIntervalNs(caps.monitoring.counterWidth); step > maxStep) {
        std::fprintf(stderr, "note: interval lowered to %.0f ms so %u-bit counters cannot wrap twice (SDM 20.18.8)\n",
            static_cast<double>(maxStep) * 1e-6, caps.monitoring.counterWidth);
        step = maxStep;
    }
    if (auto r = svc.setSamplingInterval(step); !r.ok) {
        std::fprintf(stderr, "rdtscope-cli record: %s\n", r.toString().c_str());
        return exitCodeFor(r.error());
    }
    const bool bounded = o.duration.has_value();
    const auto durationNs = bounded ? static_cast<std::uint64_t>(*o.duration * 1e9) : 0;
    const bool paced = !sim || !bounded || o.realtime;
    auto now = [&] { return svc.nowNs(); };

    std::unique_ptr<RecordMetrics> served;
    if (!o.metrics.empty()) {
        auto m = startMetrics(o, endpoint); // before the session file: a port in use leaves no file behind
        if (!m) {
            std::fprintf(stderr, "rdtscope-cli record: --metrics: %s\n", m.error().toString().c_str());
            return ExitFailure;
        }
        served = std::move(*m);
        std::fprintf(stderr, "serving metrics on %s/metrics%s\n", served->server->url().c_str(),
            source.simulated ? " (SIMULATED data)" : "");
    }
    // The time axis starts here: setup above (CPUID snapshot, capabilities) does not count. The one recorder of an
    // engine (engine/EngineRecorder.h, the GUI's too) describes the file, stores the groups' state now and takes
    // every sample batch, allocation change and scenario event the engine queues from here on.
    const auto wall0 = std::chrono::steady_clock::now();
    engine::RecordingOptions recording;
    recording.path = path;
    recording.overwrite = o.force;
    recording.origin = cliSessionOrigin("record");
    auto started = engine::EngineRecorder::start(svc, recording);
    if (!started) {
        std::fprintf(stderr, "rdtscope-cli record: %s\n", started.error().toString().c_str());
        return ExitFailure;
    }
    engine::EngineRecorder& recorder = **started;
    const std::uint64_t t0 = recorder.startNs();
    session::StopSignals::install();
    // Past a file size limit (ulimit -f) the kernel sends SIGXFSZ, which would kill us mid-transaction; ignored,
    // the write fails with EFBIG instead and the recorder stops with a message, keeping what was committed.
    std::signal(SIGXFSZ, SIG_IGN);

    std::uint64_t polls = 0, pollErrors = 0;
    std::string lastPollError;
    // Drained for the metrics endpoint and to see each poll's batch (the recorder has its copy already).
    auto drain = [&]() {
        bool gotBatch = false;
        for (auto& e : svc.drainEvents()) {
            if (auto* b = std::get_if<RdtSampleBatch>(&e)) {
                if (served) served->publisher.state().addBatch(*b, metrics::unixSeconds());
                gotBatch = true;
            }
        }
        return gotBatch;
    };
    // The group state no event reports (a scenario's write, tasks moving) is recorded by a look after each poll.
    auto observe = [&]() {
        const auto snap = recorder.observe();
        if (served && snap.result.ok) served->publisher.state().setGroups(snap, caps);
    };
    if (served) observe();
    (void)drain();
    for (std::uint64_t k = 0; !session::StopSignals::requested() && !recorder.failed(); ++k) {
        const std::uint64_t offset = k * step;
        if (bounded && offset > durationNs) break;
        if (paced) svc.waitUntil(wall0 + std::chrono::nanoseconds(offset));
        if (sim && k > 0) svc.advanceTo(t0 + offset);
        const auto polled = svc.pollRdt();
        ++polls;
        const bool gotBatch = drain();
        if (const auto lost = svc.connectionLost()) {
            pollErrors += 1;
            lastPollError = "lost " + svc.location() + ": " + lost->toString();
            break; // what was recorded so far is kept and the file is closed properly below
        }
        if (!polled.ok || !gotBatch) {
            ++pollErrors;
            lastPollError = polled.ok ? "no sample batch" : polled.toString();
            if (served) {
                served->publisher.state().addPollError();
                served->publisher.publish();
            }
            continue;
        }
        observe();
        if (served) served->publisher.publish();
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
        path.c_str(), reason.c_str(), source.simulated ? " [SIMULATED]" : "");
    // A failed poll left a gap in the session (said above): the exit code says so too.
    return pollErrors ? ExitFailure : ExitOk;
}

} // namespace

CommandRun defineRecord(CLI::App& cmd)
{
    cmd.footer(
        "Records RDT monitoring samples, allocation changes and group membership into a session file\n"
        "(SQLite; see docs/SESSION-FORMAT.md). One transaction every 500 ms: a killed recorder loses at most\n"
        "the last 500 ms. Ctrl-C / SIGTERM stop cleanly. A full disk stops the recording with a message; what\n"
        "was written is kept. Sessions from the simulator are labelled SIMULATED in the file and everywhere\n"
        "they are shown.\n"
        "Exit codes: 0 recorded, 1 failed (write error: what was written is kept), 2 usage, 3 source unavailable.");
    auto o = std::make_shared<RecordOptions>();
    cmd.add_option("-o,--output", o->output, "session file to create (refuses to overwrite without --force)")
        ->type_name("FILE")
        ->required();
    addSourceOptions(cmd, o->source);
    addNumber(cmd, "--duration", o->duration, kDurationSeconds, "S", "stop after S seconds (default: until Ctrl-C)");
    addNumber(cmd, "--interval", o->intervalMs, kIntervalMs, "MS", "sampling interval (default 100 = 10 Hz)");
    cmd.add_flag("--realtime", o->realtime,
        "simulated sources: pace in real time (default with --duration:\nas fast as possible, recording simulated "
        "time)");
    cmd.add_flag("--force", o->force, "overwrite FILE if it is a session file");
    auto* metricsOption
        = cmd.add_option("--metrics", o->metrics,
                 "also serve the samples at http://ADDR:PORT/metrics for Prometheus\n(as rdtscope-agent --metrics; "
                 "ADDR defaults to 127.0.0.1)")
              ->type_name("[ADDR:]PORT");
    cmd.add_option("--web-config", o->webConfig, "TLS and basic auth for --metrics (exporter-toolkit format)")
        ->type_name("FILE")
        ->needs(metricsOption);
    return [o] { return runRecord(*o); };
}

} // namespace rdt::cli

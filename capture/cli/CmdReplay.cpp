// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli replay FILE [--speed X|max] [--csv]: plays a recorded session back, printing like `monitor`.
#include "CmdSession.h"
#include "Commands.h"
#include "LayoutText.h"
#include "Options.h"
#include "engine/ReplayEngine.h"

#include "core/TerminalText.h"
#include "core/Text.h"
#include "rdt/SampleCsv.h"
#include "rdt/SampleFlags.h"
#include "rdt/Telemetry.h"
#include "session/ReplaySource.h"
#include "session/SessionText.h"
#include "session/StopSignals.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>
#include <variant>

namespace rdt::cli {

namespace {

struct ReplayOptions {
    std::string file;
    double speed = engine::ReplayPlayback::kAsFastAsPossible;
    bool csv = false, salvage = false;
    bool telemetry = false; ///< --telemetry: the CSV holds the recorded PERF_PKG_MON rows instead of cache rows
    std::optional<double> from, to;
};

/// A name from the file as the terminal may see it (no control characters).
std::string shown(const std::string& text)
{
    return escapeControlCharacters(text);
}

void printBatch(const RdtSampleBatch& b, std::uint64_t origin, bool csv, bool telemetry, bool simulated)
{
    const double t = b.timeNs >= origin ? static_cast<double>(b.timeNs - origin) * 1e-9 : 0.0;
    if (csv && telemetry) {
        for (const auto& s : b.telemetry)
            std::fputs(telemetryCsvLine({ t, s.group, s.package, s.event, s.value, s.perSecond }).c_str(), stdout);
        return;
    }
    if (csv) {
        for (const auto& s : b.samples)
            std::fputs(session::sampleCsvLine(s, origin).c_str(), stdout);
        return;
    }
    std::printf("TIME %.3f s%s\n", t, simulated ? " (simulated)" : "");
    std::printf("%-28s %6s %12s %12s %12s %12s %5s\n", "GROUP", "DOMAIN", "LLC[KB]", "MBL[MB/s]", "MBR[MB/s]",
        "MBT[MB/s]", "FLAGS");
    for (const auto& s : b.samples) {
        // "-" where Sample.h's rules say the reading is unknown (a series' first rate, an unreadable counter).
        const auto cell = [&](std::uint32_t unknown, double v) {
            return (s.flags & unknown) ? std::string("-") : formatString("%.1f", v);
        };
        std::printf("%-28s %6d %12s %12s %12s %12s %5s\n", shown(session::displayGroup(s.group)).c_str(), s.domain,
            cell(kOccupancyUnknown, static_cast<double>(s.occupancyBytes) / 1024.0).c_str(),
            cell(kMbmLocalRateUnknown, s.mbmLocalBps / 1e6).c_str(),
            cell(kMbmRemoteRateUnknown, s.mbmRemoteBps() / 1e6).c_str(),
            cell(kMbmTotalRateUnknown, s.mbmTotalBps / 1e6).c_str(), sampleFlagLetters(s.flags).c_str());
    }
    if (b.telemetry.empty()) return;
    std::fputs(telemetryTableHeader().c_str(), stdout);
    for (const auto& s : b.telemetry)
        std::fputs(
            telemetryTableLine(shown(s.group), s.package, s.event, s.value, s.perSecond, s.flags).c_str(), stdout);
}

void printAllocation(const AllocationChanged& a, std::uint64_t origin)
{
    const double t = a.timeNs >= origin ? static_cast<double>(a.timeNs - origin) * 1e-9 : 0.0;
    std::fprintf(stderr, "at %.3f s: %s %s %s:%d %s -> %s%s%s\n", t, shown(a.who).c_str(),
        shown(session::displayGroup(a.group)).c_str(), shown(a.resource).c_str(), a.domain,
        a.oldValue.empty() ? "-" : shown(a.oldValue).c_str(), shown(a.newValue).c_str(),
        a.ok ? "" : " REJECTED: ", a.ok ? "" : shown(a.message).c_str());
}

int runReplay(const ReplayOptions& o)
{
    const double speed = o.speed;
    auto opened = openSessionForCli("replay", o.file);
    if (!opened) return ExitFailure;
    std::shared_ptr<session::SessionReader> reader(std::move(opened));
    std::size_t issuesPrinted = printSessionIssues("replay", *reader);
    const bool csv = o.csv;
    const bool simulated = reader->meta().simulated;
    const std::uint64_t origin = reader->originNs();
    if (simulated)
        std::fprintf(stderr, "note: SIMULATED session (source %s), not measured on hardware\n",
            shown(reader->meta().source).c_str());

    // The session as an engine: the layout, groups and samples it answers are the GUI's replay's too.
    engine::ReplayEngine replay(reader);
    if (o.from) replay.seek(sessionTimeNs(*reader, *o.from));
    if (auto layout = replay.allocationLayout())
        std::fprintf(stderr, "recorded %s", formatLayoutLines(*layout).c_str());
    if (o.from) {
        for (const auto& g : replay.snapshot().groups)
            for (const auto& line : g.schemata.lines())
                for (const auto& [domain, value] : line.values)
                    std::fprintf(stderr, "in force at %.3f s: %s %s:%d=%s\n", *o.from,
                        shown(session::displayGroup(g.info.path)).c_str(), shown(line.resource).c_str(), domain,
                        shown(value).c_str());
    }
    if (o.to) replay.stopAt(sessionTimeNs(*reader, *o.to));
    replay.setSpeed(speed);
    replay.setPlaying(true);
    session::StopSignals::install();
    if (csv) std::printf("%s\n", o.telemetry ? kTelemetryCsvHeader : session::kSampleCsvHeader);
    // The markers of a recorded blame run go to stderr at their time too (docs/BLAME.md "Recording").
    const auto& markers = reader->markers();
    std::size_t nextMarker = 0;
    const std::uint64_t replayStart = o.from ? sessionTimeNs(*reader, *o.from) : 0;
    const std::uint64_t endNs = o.to ? sessionTimeNs(*reader, *o.to) : UINT64_MAX;
    auto printMarkersUntil = [&](std::uint64_t t) {
        for (; nextMarker < markers.size() && markers[nextMarker].timeNs <= t; ++nextMarker) {
            const auto& m = markers[nextMarker];
            if (m.kind != "blame" || m.timeNs < replayStart) continue;
            std::fflush(stdout);
            std::fprintf(stderr, "at %.3f s: %s\n",
                m.timeNs >= origin ? static_cast<double>(m.timeNs - origin) * 1e-9 : 0.0, shown(m.text).c_str());
        }
    };
    while (!replay.finished() && !session::StopSignals::requested()) {
        // Allocation changes go to stderr at their place in time, between the sample batches around them.
        for (const auto& event : replay.drainEvents()) {
            if (const auto* b = std::get_if<RdtSampleBatch>(&event)) {
                printMarkersUntil(b->timeNs);
                printBatch(*b, origin, csv, o.telemetry, simulated);
            } else if (const auto* a = std::get_if<AllocationChanged>(&event)) {
                if (a->who == "initial") continue; // the start state is in `summary`
                printMarkersUntil(a->timeNs);
                std::fflush(stdout);
                printAllocation(*a, origin);
            } else if (const auto* w = std::get_if<engine::EngineWarning>(&event)) {
                std::fflush(stdout);
                std::fprintf(stderr, "note: %s\n", w->text.c_str());
            }
        }
        if (!replay.finished() && speed != engine::ReplayPlayback::kAsFastAsPossible)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!session::StopSignals::requested()) printMarkersUntil(o.to ? endNs : UINT64_MAX);
    std::fflush(stdout);
    printSessionIssues("replay", *reader, issuesPrinted);
    if (simulated) std::fprintf(stderr, "note: all values above are simulated\n");
    return sessionExitCode(*reader, o.salvage);
}

} // namespace

CommandRun defineReplay(CLI::App& cmd)
{
    cmd.footer(
        "Plays a recorded session back and prints it as `rdtscope-cli monitor` does: a table per sample time,\n"
        "or CSV with the same header (time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps).\n"
        "Allocation changes recorded in the session are printed on stderr at their time. Simulated sessions\n"
        "say so.\n"
        "Exit codes: 0 ok, 1 damaged file (everything readable was replayed, problems on stderr), 2 usage error.");
    auto o = std::make_shared<ReplayOptions>();
    addPositional(cmd, "FILE", o->file, "the session file")->required();
    addNumber(cmd, "--speed", o->speed, { engine::ReplayPlayback::kMinSpeed, engine::ReplayPlayback::kMaxSpeed },
        "X|max", "times real time; max (default): as fast as possible",
        NumberWord { "max", engine::ReplayPlayback::kAsFastAsPossible });
    cmd.add_flag("--csv", o->csv, "CSV instead of tables");
    cmd.add_flag("--telemetry", o->telemetry,
        std::string("with --csv: the recorded PERF_PKG_MON rows instead:\n") + kTelemetryCsvHeader);
    addNumber(cmd, "--from", o->from, kSessionSeconds, "S",
        "start S seconds into the session\n(the allocations in force then are printed first)");
    addNumber(cmd, "--to", o->to, kSessionSeconds, "S", "stop at S seconds");
    cmd.add_flag("--salvage", o->salvage,
        "a damaged file: replay what is readable and exit 0\n(the count lost still goes to stderr)");
    return [o] { return runReplay(*o); };
}

} // namespace rdt::cli

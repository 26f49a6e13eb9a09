// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli replay FILE [--speed X|max] [--csv]: plays a recorded session back, printing like `monitor`.
#include "Args.h"
#include "CmdSession.h"
#include "Commands.h"

#include "session/ReplaySource.h"
#include "session/SessionText.h"
#include "session/StopSignals.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace rdt::cli {

namespace {

const char* const kReplayHelp
    = R"(usage: rdtscope-cli replay FILE [--speed X|max] [--csv] [--from S] [--to S] [--salvage]

Plays a recorded session back and prints it as `rdtscope-cli monitor` does: a table per sample time, or CSV
with the same header (time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps). Allocation changes
recorded in the session are printed on stderr at their time. Simulated sessions say so.
  --speed X   0.25 to 64 times real time, or `max` (default): as fast as possible
  --from S    start S seconds into the session (the allocations in force then are printed first)
  --to S      stop at S seconds
  --salvage   a damaged file: replay what is readable and exit 0 (the count lost still goes to stderr)
Exit codes: 0 ok, 1 damaged file (everything readable was replayed, problems on stderr), 2 usage error.
)";

std::string flagText(std::uint32_t f)
{
    std::string s;
    if (f & (SampleOccupancyError | SampleMbmError)) s += 'E';
    if (f & (SampleOccupancyUnavailable | SampleMbmUnavailable)) s += 'U';
    if (f & SampleMbmUnassigned) s += 'A';
    if (f & SampleWrapped) s += 'W';
    if (f & SampleMaybeMultiWrap) s += 'M';
    if (f & SampleCounterReset) s += 'R';
    return s.empty() ? "-" : s;
}

void printBatch(const RdtSampleBatch& b, std::uint64_t origin, bool csv, bool simulated)
{
    const double t = b.timeNs >= origin ? static_cast<double>(b.timeNs - origin) * 1e-9 : 0.0;
    if (csv) {
        for (const auto& s : b.samples)
            std::fputs(session::sampleCsvLine(s, origin).c_str(), stdout);
        return;
    }
    std::printf("TIME %.3f s%s\n", t, simulated ? " (simulated)" : "");
    std::printf("%-28s %6s %12s %12s %12s %12s %5s\n", "GROUP", "DOMAIN", "LLC[KB]", "MBL[MB/s]", "MBR[MB/s]",
        "MBT[MB/s]", "FLAGS");
    for (const auto& s : b.samples)
        std::printf("%-28s %6d %12.1f %12.1f %12.1f %12.1f %5s\n", session::displayGroup(s.group).c_str(), s.domain,
            static_cast<double>(s.occupancyBytes) / 1024.0, s.mbmLocalBps / 1e6, s.mbmRemoteBps() / 1e6,
            s.mbmTotalBps / 1e6, flagText(s.flags).c_str());
}

void printAllocation(const AllocationChanged& a, std::uint64_t origin)
{
    const double t = a.timeNs >= origin ? static_cast<double>(a.timeNs - origin) * 1e-9 : 0.0;
    std::fprintf(stderr, "at %.3f s: %s %s %s:%d %s -> %s%s%s\n", t, a.who.c_str(),
        session::displayGroup(a.group).c_str(), a.resource.c_str(), a.domain,
        a.oldValue.empty() ? "-" : a.oldValue.c_str(), a.newValue.c_str(),
        a.ok ? "" : " REJECTED: ", a.ok ? "" : a.message.c_str());
}

} // namespace

int cmdReplay(const std::vector<std::string>& argv)
{
    auto args = Args::parse(argv, { "speed", "from", "to" }, { "csv", "salvage", "help" });
    if (args && args->has("help")) {
        std::fputs(kReplayHelp, stdout);
        return ExitOk;
    }
    if (!args || args->positionals().size() != 1) {
        std::fprintf(stderr, "rdtscope-cli replay: %s\n%s",
            args ? "give one session file" : args.error().toString().c_str(), kReplayHelp);
        return ExitUsage;
    }
    double speed = session::ReplaySource::kAsFastAsPossible;
    if (const auto sp = args->value("speed"); sp && *sp != "max") {
        auto v = args->number("speed", 1, { session::ReplaySource::kMinSpeed, session::ReplaySource::kMaxSpeed });
        if (!v) {
            std::fprintf(stderr, "rdtscope-cli replay: --speed takes 0.25 to 64, or max\n");
            return ExitUsage;
        }
        speed = *v;
    }
    auto from = args->number("from", 0, kSessionSeconds);
    auto to = args->number("to", -1, kSessionSeconds);
    if (!from || !to) {
        std::fprintf(stderr, "rdtscope-cli replay: %s\n", (!from ? from.error() : to.error()).toString().c_str());
        return ExitUsage;
    }
    auto opened = openSessionForCli("replay", args->positionals()[0]);
    if (!opened) return ExitFailure;
    std::shared_ptr<session::SessionReader> reader(std::move(opened));
    std::size_t issuesPrinted = printSessionIssues("replay", *reader);
    const bool csv = args->has("csv");
    const bool simulated = reader->meta().simulated;
    const std::uint64_t origin = reader->originNs();
    if (simulated)
        std::fprintf(
            stderr, "note: SIMULATED session (source %s), not measured on hardware\n", reader->meta().source.c_str());

    session::ReplaySource replay(reader);
    const std::uint64_t endNs
        = args->has("to") ? std::min(replay.endNs(), sessionTimeNs(*reader, *to)) : replay.endNs();
    if (args->has("from")) {
        const std::uint64_t t = sessionTimeNs(*reader, *from);
        replay.seek(t);
        for (const auto& [key, value] : replay.allocationStateAt(t))
            std::fprintf(stderr, "in force at %.3f s: %s %s:%d=%s\n", *from,
                session::displayGroup(std::get<0>(key)).c_str(), std::get<1>(key).c_str(), std::get<2>(key),
                value.c_str());
    }
    replay.setSpeed(speed);
    replay.play();
    session::StopSignals::install();
    if (csv) std::printf("%s\n", session::kSampleCsvHeader);
    bool done = false;
    while (!done && !session::StopSignals::requested()) {
        auto u = speed == session::ReplaySource::kAsFastAsPossible
            ? replay.samplesUntil(endNs, 100000)
            : replay.samplesUntil(std::min(replay.position(), endNs));
        // Allocation changes go to stderr at their place in time, between the sample batches around them.
        std::size_t nextAlloc = 0;
        auto printAllocationsUntil = [&](std::uint64_t t) {
            for (; nextAlloc < u.allocations.size() && u.allocations[nextAlloc].timeNs <= t; ++nextAlloc) {
                if (u.allocations[nextAlloc].who == "initial") continue; // the start state is in `summary`
                std::fflush(stdout);
                printAllocation(u.allocations[nextAlloc], origin);
            }
        };
        for (const auto& b : u.batches) {
            printAllocationsUntil(b.timeNs);
            printBatch(b, origin, csv, simulated);
        }
        printAllocationsUntil(UINT64_MAX);
        done = replay.atEnd() || (replay.position() >= endNs && u.batches.empty() && speed != 0)
            || (speed == session::ReplaySource::kAsFastAsPossible && u.batches.empty());
        if (!done && speed != session::ReplaySource::kAsFastAsPossible && u.batches.empty()) {
            if (const std::uint64_t skipped = replay.skipLongGap(); skipped > 0) {
                std::fflush(stdout);
                std::fprintf(stderr, "note: skipped %.3f s of session time with no samples\n",
                    static_cast<double>(skipped) / 1e9);
            }
        }
        if (!done && speed != session::ReplaySource::kAsFastAsPossible)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::fflush(stdout);
    printSessionIssues("replay", *reader, issuesPrinted);
    if (simulated) std::fprintf(stderr, "note: all values above are simulated\n");
    return sessionExitCode(*reader, args->has("salvage"));
}

} // namespace rdt::cli

// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli monitor: a pqos-like live table of LLC occupancy and memory bandwidth per group and domain,
// or CSV, with scripted allocation changes (--at SECONDS:GROUP:SCHEMATA) for before/after experiments.
#include "CmdRdtSource.h"
#include "Commands.h"
#include "core/Text.h"
#include "core/Time.h"
#include "engine/Engine.h"
#include "engine/ExternalChangeDetector.h"
#include "rdt/AllocationChangeText.h"
#include "rdt/CounterMath.h"
#include "rdt/SampleCsv.h"
#include "rdt/SampleFlags.h"
#include "rdt/Telemetry.h"
#include "rdt/UserSchemata.h"
#include "rdt/VendorFeaturesText.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <tuple>
#include <variant>

namespace rdt::cli {

namespace {
volatile std::sig_atomic_t g_interrupted = 0;
void onSigint(int)
{
    g_interrupted = 1;
}

struct AtAction {
    std::uint64_t offsetNs = 0;
    std::string group;
    std::string schemataText;
    Schemata schemata;
};

Result<AtAction> parseAt(const std::string& spec)
{
    // SECONDS:GROUP:SCHEMATA; the schemata itself contains ':' ("L3:0=3"), so split only twice.
    const auto a = spec.find(':');
    const auto b = a == std::string::npos ? a : spec.find(':', a + 1);
    if (b == std::string::npos)
        return makeError("'" + spec + "' is not SECONDS:GROUP:SCHEMATA", "e.g. --at 10:streamer:L3:0=3");
    const auto secText = spec.substr(0, a);
    // The same number rule as --duration's, from 0: an action may apply at the start.
    const auto secs = checkNumber(secText, { 0, kDurationSeconds.max });
    if (!secs) return makeError("'" + spec + "': '" + secText + "' is not a number of seconds");
    AtAction act;
    act.offsetNs = secondsToNs(*secs);
    act.group = groupPathFromUser(spec.substr(a + 1, b - a - 1));
    act.schemataText = spec.substr(b + 1);
    // The syntax now; the units of bandwidth values once the source's capabilities are known (runMonitor).
    auto s = checkUserSchemataSyntax(userSchemataText({ act.schemataText }));
    if (!s) return makeError("'" + spec + "': " + s.error().message, s.error().advice);
    return act;
}

struct Printed {
    std::uint64_t total = 0;
    std::uint64_t local = 0;
    std::uint32_t flags = 0;
};

struct MonitorOptions {
    SourceOptions source;
    double intervalMs = 1000;
    std::optional<double> duration;
    bool csv = false;
    bool telemetry = false; ///< --telemetry: the CSV holds PERF_PKG_MON rows instead of cache rows
    bool nodes = false; ///< --nodes: Intel SNC, a row per sub-NUMA node of each L3 domain
    std::vector<std::string> at;
};

/// PERF_PKG_MON lines of one printed interval: energy and activity per group and package, with their rates over
/// the interval (from the cumulative values, so sub-polls in between do not matter).
void printTelemetry(const RdtSampleBatch& batch, double t, double secs, bool csv,
    std::map<std::tuple<std::string, int, std::string>, double>& printed)
{
    if (batch.telemetry.empty()) return;
    if (!csv) std::fputs(telemetryTableHeader().c_str(), stdout);
    for (const auto& s : batch.telemetry) {
        const auto key = std::make_tuple(s.group, s.package, s.event);
        auto it = printed.find(key);
        const bool counted = it != printed.end() && s.value >= it->second
            && !(s.flags & (SampleTelemetryError | SampleTelemetryUnavailable));
        const double rate = counted ? (s.value - it->second) / secs : 0.0;
        if (csv)
            std::fputs(telemetryCsvLine({ t, s.group, s.package, s.event, s.value, rate }).c_str(), stdout);
        else
            std::fputs(telemetryTableLine(s.group, s.package, s.event, s.value, rate, s.flags).c_str(), stdout);
        printed[key] = s.value;
    }
}

int runMonitor(const MonitorOptions& o)
{
    std::vector<AtAction> actions;
    for (const auto& spec : o.at) // checked by parseAt when parsed (defineMonitor)
        actions.push_back(*parseAt(spec));
    std::stable_sort(
        actions.begin(), actions.end(), [](const auto& x, const auto& y) { return x.offsetNs < y.offsetNs; });

    int code = 0;
    SourceOptions sourceOptions = o.source;
    sourceOptions.sncNodes = o.nodes;
    auto service = openServiceForCli(sourceOptions, code);
    if (!service) return code;
    engine::Engine& svc = **service;
    const bool simulated = svc.source().simulated;
    auto machine = svc.machine();
    if (!machine) {
        std::fprintf(stderr, "rdtscope-cli monitor: %s\n", machine.error().toString().c_str());
        return exitCodeFor(machine.error());
    }
    if (!machine->capabilities.monitoring.present) {
        std::fprintf(stderr, "rdtscope-cli monitor: %s has no RDT monitoring (no L3_MON / CPUID.0FH)\n",
            svc.source().backend.c_str());
        return ExitUnavailable;
    }
    if (machine->capabilities.monitoring.domains.empty()) {
        // L3_MON without mon_data domains (a partial copy of a tree): no counter file exists, so there is nothing to
        // print; say so instead of printing empty tables every interval.
        std::fprintf(stderr,
            "rdtscope-cli monitor: %s enumerates L3_MON but mon_data holds no mon_L3_XX domain (missing or empty): "
            "no counter can be read\n",
            svc.source().backend.c_str());
        return ExitUnavailable;
    }
    if (o.nodes && machine->capabilities.monitoring.subDomains.empty()) {
        std::fprintf(stderr,
            "rdtscope-cli monitor: --nodes: %s has no SNC sub-NUMA nodes (Intel SNC mode, Linux 6.11: "
            "mon_L3_XX/mon_sub_L3_YY; try --source sim --preset icx-8351n-snc2)\n",
            svc.source().backend.c_str());
        return ExitUnavailable;
    }
    for (auto& act : actions) { // the units of --at's bandwidth values, now that the capabilities are known
        auto s = parseUserSchemata(userSchemataText({ act.schemataText }), machine->capabilities);
        if (!s) {
            std::fprintf(stderr, "rdtscope-cli monitor: --at '%s': %s\n", act.schemataText.c_str(),
                s.error().toString().c_str());
            return ExitUsage;
        }
        act.schemata = std::move(*s);
    }

    // Assignable counters (AMD ABMC): how many are left, so "A" rows (Unassigned) can be acted on.
    if (const auto free = formatFreeCounters(machine->capabilities.monitoring); !free.empty())
        std::fprintf(
            stderr, "%s; rows flagged A have no counter: assign one with `groups counter-assign`\n", free.c_str());

    const auto printInterval = static_cast<std::uint64_t>(o.intervalMs * 1e6);
    // Poll at least as often as the counter width requires (20.18.8) and print per interval from the
    // sampler's wrap-corrected cumulative bytes.
    const auto maxStep = maxPollIntervalNs(machine->capabilities.monitoring.counterWidth);
    const std::uint64_t subPolls = std::max<std::uint64_t>(1, (printInterval + maxStep - 1) / maxStep);
    const std::uint64_t step = printInterval / subPolls;
    (void)svc.setSamplingInterval(step);

    const bool csv = o.csv;
    const bool bounded = o.duration.has_value();
    const std::uint64_t durationNs = bounded ? static_cast<std::uint64_t>(*o.duration * 1e9) : 0;
    // Simulated sources with a duration run as fast as possible; otherwise we pace in real time.
    const bool paced = !(simulated && bounded);
    std::signal(SIGINT, onSigint);

    const std::uint64_t t0 = svc.nowNs();
    const auto wall0 = std::chrono::steady_clock::now();
    auto advanceTo = [&](std::uint64_t offset) {
        if (paced || !simulated) svc.waitUntil(wall0 + std::chrono::nanoseconds(offset));
        svc.advanceTo(t0 + offset); // a no-op for real sources
    };
    // Scenario lines are printed as they happen; the last sample batch of a drain is what a poll produced.
    auto drain = [&](const char* scenarioPrefix, bool withTime) {
        std::optional<RdtSampleBatch> batch;
        for (auto& e : svc.drainEvents()) {
            if (auto* s = std::get_if<SimulationEvent>(&e)) {
                if (withTime)
                    std::fprintf(stderr, "%s %.3f s: %s%s\n", scenarioPrefix,
                        nsToSeconds(s->timeNs - std::min(s->timeNs, t0)), s->ok ? "" : "FAILED ", s->text.c_str());
                else
                    std::fprintf(stderr, "%s: %s%s\n", scenarioPrefix, s->ok ? "" : "FAILED ", s->text.c_str());
            } else if (auto* b = std::get_if<RdtSampleBatch>(&e)) {
                batch = std::move(*b);
            } else if (auto* c = std::get_if<AllocationChanged>(&e); c && c->who == engine::kExternalWho) {
                // Another program (pqos, a shell) changed an allocation: said on stderr, the table stays data.
                std::fprintf(stderr, "external change %.3f s: %s %s -> %s\n",
                    nsToSeconds(c->timeNs - std::min(c->timeNs, t0)), allocationChangeTarget(*c).c_str(),
                    c->oldValue.empty() ? "(new group)" : c->oldValue.c_str(), c->newValue.c_str());
            }
        }
        return batch;
    };
    (void)drain("scenario", false);
    if (auto r = svc.pollRdt(); !r.ok) {
        std::fprintf(stderr, "rdtscope-cli monitor: %s\n", r.toString().c_str());
        return exitCodeFor(r.error());
    }
    const auto first = drain("scenario", false);
    std::map<std::tuple<std::string, int, int>, Printed> printed; // (group, domain, SNC node or -1)
    if (!first) return ExitFailure;
    // --nodes: the rows per SNC node (RdtSampleBatch::nodeSamples); otherwise one per L3 domain.
    auto rows = [&o](const RdtSampleBatch& b) -> const std::vector<RdtSample>& {
        return o.nodes ? b.nodeSamples : b.samples;
    };
    for (const auto& s : rows(*first))
        printed[{ s.group, s.domain, s.node }] = { s.mbmTotalBytes, s.mbmLocalBytes, 0 };
    std::map<std::tuple<std::string, int, std::string>, double> printedTelemetry;
    for (const auto& s : first->telemetry)
        if (!(s.flags & (SampleTelemetryError | SampleTelemetryUnavailable)))
            printedTelemetry[{ s.group, s.package, s.event }] = s.value;
    if (o.telemetry && !machine->capabilities.telemetry.present) {
        std::fprintf(stderr,
            "rdtscope-cli monitor: --telemetry: %s has no PERF_PKG_MON telemetry (Intel, Linux 7.0; "
            "try --source sim --preset icx-8351n-snc2)\n",
            svc.source().backend.c_str());
        return ExitUnavailable;
    }
    if (machine->capabilities.telemetry.present && !csv)
        std::fprintf(stderr, "PERF_PKG_MON telemetry per group and package; monitor groups limited to %u\n",
            machine->capabilities.maxMonitorGroups());

    if (csv) std::printf("%s\n", o.telemetry ? kTelemetryCsvHeader : o.nodes ? kNodeSampleCsvHeader : kSampleCsvHeader);
    std::size_t nextAction = 0;
    bool actionFailed = false;
    std::uint64_t failedPolls = 0; ///< a failed poll is printed and makes the exit code say so
    std::uint64_t partialPolls = 0; ///< polls that read some groups but not all: the same
    std::set<std::string> unreadSaid; ///< groups whose read failure was printed once
    std::uint64_t offset = 0;
    for (std::uint64_t k = 1; !g_interrupted; ++k) {
        const std::uint64_t printAt = k * printInterval;
        if (bounded && printAt > durationNs + printInterval / 2) break;
        RdtSampleBatch last;
        bool ok = false;
        for (std::uint64_t j = 1; j <= subPolls && !g_interrupted; ++j) {
            const std::uint64_t pollAt = (k - 1) * printInterval + j * step;
            while (nextAction < actions.size() && actions[nextAction].offsetNs <= pollAt) {
                const auto& act = actions[nextAction++];
                if (act.offsetNs > offset) advanceTo(act.offsetNs);
                offset = std::max(offset, act.offsetNs);
                const auto out = svc.applyAllocation(act.group, act.schemata);
                const double at = nsToSeconds(svc.nowNs() - t0);
                if (out.result.ok) {
                    std::fprintf(stderr, "at %.3f s: applied '%s' to %s\n", at, act.schemataText.c_str(),
                        displayGroup(act.group).c_str());
                } else {
                    actionFailed = true;
                    std::fprintf(stderr, "at %.3f s: could not apply '%s' to %s: %s\n", at, act.schemataText.c_str(),
                        displayGroup(act.group).c_str(), out.result.toString().c_str());
                }
                for (const auto& n : out.result.notes)
                    std::fprintf(stderr, "  note: %s\n", n.c_str());
            }
            advanceTo(pollAt);
            offset = pollAt;
            const auto polled = svc.pollRdt();
            auto batch = drain("scenario at", true);
            if (!polled.ok || !batch) {
                // A lost agent does not come back by polling it again: say so once and stop.
                if (const auto lost = svc.connectionLost()) {
                    std::fprintf(stderr, "rdtscope-cli monitor: lost %s: %s\n", svc.location().c_str(),
                        lost->toString().c_str());
                    return ExitFailure;
                }
                std::fprintf(stderr, "rdtscope-cli monitor: poll failed: %s\n", polled.toString().c_str());
                ++failedPolls;
                continue;
            }
            for (const auto& s : rows(*batch))
                printed[{ s.group, s.domain, s.node }].flags |= s.flags;
            if (!batch->unread.empty()) ++partialPolls;
            for (const auto& u : batch->unread)
                if (unreadSaid.insert(u.group).second)
                    std::fprintf(stderr, "rdtscope-cli monitor: could not read group %s: %s\n",
                        displayGroup(u.group).c_str(), u.error.c_str());
            last = std::move(*batch);
            ok = true;
        }
        if (!ok) continue;
        const double t = nsToSeconds(last.timeNs - t0);
        const double secs = nsToSeconds(printInterval);
        if (!csv) {
            std::printf("TIME %.3f s%s\n", t, simulated ? " (simulated)" : "");
            std::printf("%-28s %6s%s %12s %12s %12s %12s %5s\n", "GROUP", "DOMAIN", o.nodes ? "   NODE" : "", "LLC[KB]",
                "MBL[MB/s]", "MBR[MB/s]", "MBT[MB/s]", "FLAGS");
        }
        for (const auto& s : rows(last)) {
            if (csv && o.telemetry) break;
            auto& p = printed[{ s.group, s.domain, s.node }];
            const double total = static_cast<double>(s.mbmTotalBytes - std::min(p.total, s.mbmTotalBytes)) / secs;
            const double local = static_cast<double>(s.mbmLocalBytes - std::min(p.local, s.mbmLocalBytes)) / secs;
            // A value that could not be read is unknown ("-" in the table, an empty CSV field), not 0: a missing
            // llc_occupancy file blanks the LLC column only, a missing mbm_local_bytes the local and remote
            // columns only (the flags say which, Sample.h).
            const bool occBad = (p.flags & kOccupancyUnknown) != 0;
            const bool totalBad = (p.flags & kMbmTotalUnread) != 0;
            const bool localBad = (p.flags & kMbmLocalUnread) != 0;
            if (csv) {
                constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
                std::fputs(sampleCsvLine({ t, s.group, s.domain,
                                             occBad ? std::nullopt : std::optional<std::uint64_t>(s.occupancyBytes),
                                             totalBad ? kUnknown : total, localBad ? kUnknown : local,
                                             o.nodes ? std::optional<int>(s.node) : std::nullopt })
                               .c_str(),
                    stdout);
            } else {
                const std::string node = o.nodes ? formatString(" %6d", s.node) : std::string();
                auto cell = [](bool bad, double v) { return bad ? std::string("-") : formatString("%.1f", v); };
                std::printf("%-28s %6d%s %12s %12s %12s %12s %5s\n", displayGroup(s.group).c_str(), s.domain,
                    node.c_str(), cell(occBad, static_cast<double>(s.occupancyBytes) / 1024.0).c_str(),
                    cell(localBad, local / 1e6).c_str(),
                    cell(totalBad || localBad, (total > local ? total - local : 0.0) / 1e6).c_str(),
                    cell(totalBad, total / 1e6).c_str(), sampleFlagLetters(p.flags).c_str());
            }
            p = { s.mbmTotalBytes, s.mbmLocalBytes, 0 };
        }
        if (!csv || o.telemetry) printTelemetry(last, t, secs, csv, printedTelemetry);
        std::fflush(stdout);
    }
    std::signal(SIGINT, SIG_DFL);
    if (simulated) std::fprintf(stderr, "note: all values above are simulated\n");
    if (failedPolls > 0) {
        std::fprintf(stderr, "rdtscope-cli monitor: %llu poll(s) failed; their rows are missing above\n",
            static_cast<unsigned long long>(failedPolls));
        return ExitFailure;
    }
    if (partialPolls > 0) {
        std::fprintf(stderr,
            "rdtscope-cli monitor: %llu poll(s) could not read every group (named above); their rows are missing\n",
            static_cast<unsigned long long>(partialPolls));
        return ExitFailure;
    }
    return actionFailed ? ExitFailure : ExitOk;
}

} // namespace

CommandRun defineMonitor(CLI::App& cmd)
{
    cmd.footer("Table flags: E error, U unavailable, A unassigned, W wrap corrected, M may hide wraps, R reset.");
    auto o = std::make_shared<MonitorOptions>();
    addSourceOptions(cmd, o->source);
    addNumber(cmd, "--interval", o->intervalMs, kIntervalMs, "MS",
        "print period (default 1000); polls at least every second for 24-bit\ncounters");
    addNumber(cmd, "--duration", o->duration, kDurationSeconds, "S",
        "stop after S seconds (simulated sources run as fast as possible)");
    cmd.add_flag("--csv", o->csv, kSampleCsvHeader);
    auto* telemetry = cmd.add_flag("--telemetry", o->telemetry,
        std::string("with --csv: PERF_PKG_MON rows instead (Intel, Linux 7.0):\n") + kTelemetryCsvHeader);
    cmd.add_flag("--nodes", o->nodes,
           std::string("Intel SNC: a row per sub-NUMA node of each L3 domain; with --csv:\n") + kNodeSampleCsvHeader)
        ->excludes(telemetry);
    cmd.add_option(
           "--at", o->at, "at T seconds apply schemata S to group G, e.g. --at 10:streamer:L3:0=3\n(repeatable)")
        ->type_name("SECONDS:GROUP:SCHEMATA")
        ->take_all()
        ->check(checkedBy(parseAt));
    return [o] { return runMonitor(*o); };
}

} // namespace rdt::cli

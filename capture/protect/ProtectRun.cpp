// SPDX-License-Identifier: GPL-3.0-or-later
// The control loop of runProtect (Protect.h): read the interval, ask the policy, clamp to the floors, hold the write
// rate, write transactionally; revert on a lost signal; write the start allocation back at the end and on a stop.
#include "BestEffortAllocation.h"
#include "ExternalSignal.h"
#include "IntervalSampler.h"
#include "Protect.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <deque>

namespace rdt::protect {

namespace {

std::string rateText(double perSecond)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", perSecond);
    return buf;
}

class ProtectController {
public:
    ProtectController(engine::Engine& engine, const ProtectSettings& settings, const ProtectHooks& hooks)
        : m_engine(engine)
        , m_s(settings)
        , m_hooks(hooks)
    { }
    Result<ProtectResult> run();

private:
    bool stopRequested() const { return m_hooks.stopRequested && m_hooks.stopRequested(); }
    void decide(const std::string& action, const Knobs& knobs, const std::string& reason, unsigned writes);
    /// Writes `want` when the rate limit allows; false when it was deferred or refused.
    bool apply(const Knobs& want, const std::string& reason);
    std::optional<double> signalOf(const IntervalReading& r, std::string& why);

    engine::Engine& m_engine;
    ProtectSettings m_s;
    ProtectHooks m_hooks;
    ProtectResult m_result;
    std::optional<BestEffortAllocation> m_alloc;
    std::optional<ExternalSignal> m_external;
    Knobs m_knobs;
    std::uint64_t m_t0 = 0, m_now = 0;
    std::deque<std::uint64_t> m_writeTimes; ///< offsets of the writes within the last second
};

void ProtectController::decide(const std::string& action, const Knobs& knobs, const std::string& reason, unsigned w)
{
    if (m_result.decisions.size() >= kKeptIntervals)
        m_result.decisions.erase(
            m_result.decisions.begin(), m_result.decisions.begin() + static_cast<std::ptrdiff_t>(kKeptIntervals / 10));
    Decision d;
    d.offsetNs = m_now;
    d.action = action;
    d.knobs = describeKnobs(knobs, m_alloc->limits());
    d.reason = reason;
    d.writes = w;
    m_result.decisions.push_back(d);
    if (m_hooks.onDecision) m_hooks.onDecision(d, m_t0 + m_now);
}

bool ProtectController::apply(const Knobs& want, const std::string& reason)
{
    const unsigned groups = static_cast<unsigned>(m_alloc->groups().size());
    while (!m_writeTimes.empty() && m_writeTimes.front() + 1'000'000'000 <= m_now)
        m_writeTimes.pop_front();
    if (static_cast<double>(m_writeTimes.size() + groups) > m_s.maxWritesPerSecond) {
        decide("deferred", want,
            reason + " (deferred: the write-rate limit of " + rateText(m_s.maxWritesPerSecond)
                + " writes per second is reached)",
            0);
        return false;
    }
    std::string error;
    const unsigned w = m_alloc->write(want, m_knobs, error);
    m_result.writes += w;
    for (unsigned i = 0; i < w; ++i)
        m_writeTimes.push_back(m_now);
    if (!error.empty()) {
        decide("refused", want, reason + " (refused, nothing changed: " + error + ")", w);
        return false;
    }
    m_knobs = want;
    decide("write", want, reason, w);
    return true;
}

std::optional<double> ProtectController::signalOf(const IntervalReading& r, std::string& why)
{
    switch (m_s.target.kind) {
    case SignalKind::Ipc:
        if (!r.lcIpc) why = r.unread.empty() ? "no IPC" : r.unread;
        return r.lcIpc;
    case SignalKind::Mpki:
        if (!r.lcMpki) why = r.unread.empty() ? "no MPKI" : r.unread;
        return r.lcMpki;
    case SignalKind::Occupancy:
        if (!r.lcOccupancyBytes) why = "the protected group's occupancy was not read";
        return r.lcOccupancyBytes;
    case SignalKind::External: {
        auto v = m_external->read();
        if (!v) {
            why = v.error().toString();
            return std::nullopt;
        }
        return *v;
    }
    }
    return std::nullopt;
}

Result<ProtectResult> ProtectController::run()
{
    auto policy = makePolicy(m_s.policy, m_s.tuning);
    if (!policy) return policy.error();
    const auto& writability = m_engine.source().writability;
    if (!writability.writable)
        return errnoError(
            EROFS, "protect writes allocations and this source cannot: " + writability.text(), writability.fix);
    if (m_s.target.kind == SignalKind::External) {
        if (m_s.signalCommand.empty())
            return errnoError(EINVAL, "the target '" + m_s.target.text() + "' needs --signal-cmd");
        m_external.emplace(
            m_s.signalCommand, std::chrono::milliseconds(std::max<std::uint64_t>(m_s.intervalNs / 1'000'000, 200)));
    }
    std::vector<std::string> be = m_s.beGroups.empty() ? defaultBestEffortGroups(m_engine, m_s.lcGroup) : m_s.beGroups;
    if (be.empty())
        return errnoError(ENOENT, "no best-effort group to move: only the protected group and the default group exist",
            "name them with --be GROUP,GROUP");
    if (static_cast<double>(be.size()) > m_s.maxWritesPerSecond)
        return errnoError(EINVAL,
            std::to_string(be.size()) + " best-effort groups take " + std::to_string(be.size())
                + " schemata writes per decision, more than the write-rate limit of " + rateText(m_s.maxWritesPerSecond)
                + " per second allows",
            "raise --max-writes or name fewer groups with --be");
    if (std::find(be.begin(), be.end(), m_s.lcGroup) != be.end())
        return errnoError(EINVAL, "the protected group " + displayGroup(m_s.lcGroup) + " is also named best-effort");
    {
        const auto snap = m_engine.snapshot();
        const bool known = std::any_of(snap.groups.begin(), snap.groups.end(),
            [&](const engine::GroupState& g) { return g.info.path == m_s.lcGroup && g.info.isControl; });
        if (!known)
            return errnoError(ENOENT, "no control group '" + displayGroup(m_s.lcGroup) + "' to protect",
                "rdtscope-cli groups lists them");
    }
    auto alloc = BestEffortAllocation::open(m_engine, be, m_s.minBeWays, m_s.mbaFloor);
    if (!alloc) return alloc.error();
    m_alloc.emplace(std::move(*alloc));
    m_result.policy = (*policy)->name();
    m_result.target = m_s.target;
    m_result.limits = m_alloc->limits();
    m_result.beGroups = be;
    m_result.simulated = m_engine.source().simulated;
    m_result.startAllocation = m_alloc->describeNow();
    m_knobs = m_alloc->startKnobs();
    m_t0 = m_engine.nowNs();

    const auto begun = m_engine.beginExperiment(be);
    if (!begun.ok)
        m_result.notes.push_back(
            "the engine will not restore the best-effort groups if this client disconnects: " + begun.toString());

    IntervalSampler sampler(m_engine, m_s.lcGroup, be, m_s.paced, { m_hooks.onEvent, m_hooks.onBatch });
    const Knobs first = m_alloc->limits().clamp((*policy)->initial(m_alloc->limits(), m_knobs));
    if (!(first == m_knobs)) apply(first, m_result.policy + ": its starting allocation");

    unsigned lost = 0;
    bool reverted = false;
    bool throughputByPmu = true;
    for (unsigned index = 0;; ++index) {
        if (stopRequested()) {
            m_result.stopped = true;
            break;
        }
        if (m_s.durationNs && m_now >= m_s.durationNs) break;
        if (const auto gone = m_engine.connectionLost()) {
            m_result.error = *gone;
            break;
        }
        const std::uint64_t step = m_s.durationNs ? std::min(m_s.intervalNs, m_s.durationNs - m_now) : m_s.intervalNs;
        const auto reading = sampler.next(step);
        m_now = reading.timeNs - m_t0;
        for (const auto& e : reading.scenario)
            if (e.note && e.text.rfind("load step", 0) == 0) m_result.loadStepsNs.push_back(m_now);
        IntervalRecord rec;
        rec.offsetNs = m_now;
        rec.knobs = m_knobs;
        rec.lcOccupancyBytes = reading.lcOccupancyBytes;
        if (reading.beInstructionsPerSecond) {
            rec.beThroughput = reading.beInstructionsPerSecond;
        } else {
            throughputByPmu = false;
            rec.beThroughput = reading.beMissBps;
        }
        std::string why;
        rec.signal = signalOf(reading, why);
        if (rec.signal) rec.slack = m_s.target.slack(*rec.signal);
        m_result.intervals.push_back(rec);
        if (m_result.intervals.size() > kKeptIntervals) {
            // A run without end keeps bounded memory: the oldest tenth goes, and the figures say they cover less.
            m_result.intervals.erase(m_result.intervals.begin(),
                m_result.intervals.begin() + static_cast<std::ptrdiff_t>(kKeptIntervals / 10));
            if (!m_result.intervalsDropped)
                m_result.notes.push_back("only the last " + std::to_string(kKeptIntervals)
                    + " intervals are kept: the figures cover them, not the whole run");
            m_result.intervalsDropped = true;
        }
        if (m_hooks.onInterval) m_hooks.onInterval(rec);

        if (!rec.signal) {
            if (++lost == m_s.signalLossIntervals && !reverted) {
                unsigned w = 0;
                std::vector<std::string> log;
                const bool ok = m_alloc->restoreStart(w, log);
                m_result.writes += w;
                m_result.restoreLog.insert(m_result.restoreLog.end(), log.begin(), log.end());
                m_knobs = m_alloc->startKnobs();
                reverted = true;
                (*policy)->reset();
                decide("revert", m_knobs,
                    "signal lost for " + std::to_string(lost) + " intervals (" + why
                        + "): the start allocation written back" + (ok ? "" : ", but it does NOT read back"),
                    w);
            }
            continue;
        }
        lost = 0;
        reverted = false;
        IntervalView view;
        view.index = index;
        view.slack = rec.slack;
        view.lcOccupancyBytes = reading.lcOccupancyBytes;
        view.beMissBps = reading.beMissBps;
        view.knobs = m_knobs;
        const auto d = (*policy)->decide(view, m_alloc->limits());
        const Knobs want = m_alloc->limits().clamp(d.knobs);
        if (!(want == m_knobs)) {
            std::string reason = d.reason;
            if (!(want == d.knobs)) reason += " (held at the floors)";
            apply(want, reason);
        }
    }
    m_result.throughputUnit = throughputByPmu ? "instructions/s" : "memory bytes/s (no PMU counts)";
    m_result.pmu = sampler.pmuMethod();
    if (m_s.restoreAtEnd || m_result.stopped || m_result.error) {
        unsigned w = 0;
        m_result.restored = m_alloc->restoreStart(w, m_result.restoreLog);
        m_result.writes += w;
        decide("restore", m_alloc->startKnobs(),
            std::string(m_result.stopped ? "stopped"
                    : m_result.error     ? "ended by an error"
                                         : "the run ended")
                + ": the start allocation written back"
                + (m_result.restored ? " and read back" : ", but it does NOT read back"),
            w);
        if (begun.ok && m_result.restored) (void)m_engine.endExperiment();
    } else if (begun.ok) {
        (void)m_engine.endExperiment();
    }
    m_result.endAllocation = m_alloc->describeNow();
    m_result.elapsedNs = m_engine.nowNs() - m_t0;
    return m_result;
}

} // namespace

std::vector<std::string> defaultBestEffortGroups(engine::Engine& engine, const std::string& lcGroup)
{
    std::vector<std::string> out;
    const auto snap = engine.snapshot();
    for (const auto& g : snap.groups)
        if (g.info.isControl && !g.info.path.empty() && g.info.path != lcGroup) out.push_back(g.info.path);
    return out;
}

Result<ProtectResult> runProtect(engine::Engine& engine, const ProtectSettings& settings, const ProtectHooks& hooks)
{
    return ProtectController(engine, settings, hooks).run();
}

} // namespace rdt::protect

// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a blame: the passive observation, the ranking, then each probe as its own transaction (fence, settle,
// measure, restore, read back), the scenario's timed steps held throughout on a simulated source.
#include "Blame.h"
#include "Containment.h"
#include "FencePlan.h"
#include "PollRecorder.h"
#include "SuspectRanking.h"
#include "TaskSuspects.h"
#include "VictimHarm.h"
#include "VictimKnee.h"
#include "Windows.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <map>

#include <unistd.h>

namespace rdt::blame {

namespace {

std::uint64_t maskOf(const Schemata& s, int domain)
{
    for (const char* r : { "L3", "L3DATA" })
        if (const auto v = s.value(r, domain))
            if (const auto m = parseMask(*v)) return *m;
    return 0;
}

std::string oneLine(const Schemata& s)
{
    std::string t = s.format();
    while (!t.empty() && t.back() == '\n')
        t.pop_back();
    std::replace(t.begin(), t.end(), '\n', ' ');
    return t;
}

/// Tasks of the default group probed at most (each a probe of its own, within the probe budget).
constexpr std::size_t kMaxTaskProbes = 3;

std::string pct(double share)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f %%", share * 100);
    return buf;
}

class BlameRunner {
public:
    BlameRunner(engine::Engine& engine, const BlameSettings& settings, const BlameHooks& hooks)
        : m_engine(engine)
        , m_s(settings)
        , m_hooks(hooks)
    { }

    Result<BlameResult> run();

private:
    void phase(const std::string& text)
    {
        if (m_hooks.onPhase) m_hooks.onPhase(text, m_engine.nowNs());
    }
    /// Fences one suspect, measures the victim, restores. False when a stop was asked for (already restored).
    /// Fences the suspects together (one, or the joint probe), measures the victim, restores each. False when a stop
    /// was asked for (already restored).
    bool probe(const std::vector<Suspect*>& suspects, const Capabilities& caps, BlameResult& result);
    void restore(const std::string& group, const Fence& fence, ProbeResult& probe);
    /// The polls before ([b0, b1)) and during ([d0, d1)) a fence.
    struct Spans {
        std::size_t b0, b1, d0, d1;
    };
    /// The victim's figures before and during a fence of `names`, the verdict and its sentence.
    void judge(ProbeResult& p, const std::string& names, const GroupDomain& victimKey, Spans spans);
    /// Moves one task of the default group into a fenced group of its own, measures the victim, moves it back and
    /// removes that group. False when a stop was asked for (already moved back).
    bool probeTask(Suspect& task, const Capabilities& caps, BlameResult& result);
    /// The default group's busiest tasks probed one by one when the default group itself was found to hurt.
    bool probeDefaultTasks(const Capabilities& caps, BlameResult& result, std::uint64_t& budget);
    /// Moves the culprit to its best-effort allocation and measures the victim before and after. False when a stop
    /// was asked for (the containment is then undone).
    bool contain(const Suspect& culprit, const Capabilities& caps, BlameResult& result);

    engine::Engine& m_engine;
    BlameSettings m_s;
    BlameHooks m_hooks;
    Observation m_obs;
    std::unique_ptr<PollRecorder> m_recorder;
    std::uint64_t m_start = 0;
    /// The default group's tasks' CPU time when the observation began (empty: none here, m_taskStatsWhy says why).
    std::map<unsigned, TaskStat> m_taskStatsBefore;
    std::string m_taskStatsWhy;
};

void BlameRunner::restore(const std::string& group, const Fence& fence, ProbeResult& p)
{
    const auto out = m_engine.applyAllocation(group, fence.original);
    ++p.writes;
    p.log.push_back(displayGroup(group) + ": restore "
        + (out.result.ok ? "wrote " + oneLine(fence.original) : "FAILED " + out.result.toString()));
    bool ok = out.result.ok;
    const auto snap = m_engine.snapshot();
    ok = ok && snap.result.ok;
    for (const auto& g : snap.groups) {
        if (g.info.path != group || !g.info.isControl) continue;
        for (const auto& line : fence.original.lines())
            for (const auto& [d, v] : line.values)
                if (g.schemata.value(line.resource, d) != v) {
                    ok = false;
                    p.log.push_back(displayGroup(group) + " " + line.resource + ":" + std::to_string(d) + " reads back "
                        + g.schemata.value(line.resource, d).value_or("nothing") + ", not " + v);
                }
    }
    p.restored = ok;
}

bool BlameRunner::probe(const std::vector<Suspect*>& suspects, const Capabilities& caps, BlameResult& result)
{
    ProbeResult p;
    const Suspect& lead = *suspects.front();
    p.group = lead.group;
    p.domain = lead.domain;
    std::string names;
    for (const auto* s : suspects) {
        names += (names.empty()                                        ? ""
                         : suspects.size() > 1 && s == suspects.back() ? " and "
                                                                       : ", ")
            + displayGroup(s->group);
        if (suspects.size() > 1) p.together.push_back(s->group);
    }
    const auto snap = m_engine.snapshot();
    if (!snap.result.ok) {
        result.notes.push_back("probe of " + names + " not run: " + snap.result.toString());
        return true;
    }
    std::vector<std::pair<std::string, Fence>> fences;
    std::vector<std::string> groups;
    for (const auto* s : suspects) {
        auto fence = planFence(caps, snap.groups, s->group, m_obs.victim, s->resource);
        if (!fence) {
            result.notes.push_back("probe of " + displayGroup(s->group) + " not run: " + fence.error().toString());
            return true;
        }
        if (!fence->note.empty()) result.notes.push_back(displayGroup(s->group) + ": " + fence->note);
        p.resource = fence->resource;
        p.fence
            += (p.fence.empty() ? "" : ", ") + (suspects.size() > 1 ? displayGroup(s->group) + " " : "") + fence->text;
        fences.emplace_back(s->group, std::move(*fence));
        groups.push_back(s->group);
    }
    const GroupDomain victimKey { m_obs.victim, lead.domain };

    // The victim before: measured now, after the previous probe's restore has settled.
    const std::size_t b0 = m_obs.polls.size();
    if (!m_recorder->record(m_s.probeMeasureNs, m_obs.polls)) return false;
    const std::size_t b1 = m_obs.polls.size();

    const auto begun = m_engine.beginExperiment(groups);
    if (!begun.ok)
        result.notes.push_back(
            "the engine will not restore " + names + " if this client disconnects: " + begun.toString());
    phase("probe: fencing " + names + " with " + p.fence);
    std::optional<engine::CommandResult> refused;
    std::size_t written = 0;
    for (const auto& [group, fence] : fences) {
        const auto out = m_engine.applyAllocation(group, fence.change);
        ++p.writes;
        ++written; // a refused transaction restored itself, but its group is restored again below all the same
        p.log.push_back(displayGroup(group) + ": fence "
            + (out.result.ok ? "wrote " + fence.text : "FAILED " + out.result.toString()));
        if (!out.result.ok) {
            refused = out.result;
            break;
        }
    }
    bool stopped = false;
    std::size_t d0 = 0, d1 = 0;
    if (!refused) {
        stopped = !m_recorder->record(m_s.probeSettleNs, m_obs.polls);
        d0 = m_obs.polls.size();
        stopped = stopped || !m_recorder->record(m_s.probeMeasureNs, m_obs.polls);
        d1 = m_obs.polls.size();
    }
    // The original allocation comes back however the probe ended, in reverse order of the fences.
    p.restored = true;
    for (std::size_t i = written; i-- > 0;) {
        ProbeResult one;
        restore(fences[i].first, fences[i].second, one);
        p.writes += one.writes;
        p.log.insert(p.log.end(), one.log.begin(), one.log.end());
        p.restored = p.restored && one.restored;
    }
    if (begun.ok && p.restored) (void)m_engine.endExperiment();
    result.probeWrites += p.writes;
    result.restored = result.restored && p.restored;
    if (refused) {
        result.notes.push_back("probe of " + names + " refused: " + refused->toString());
        if (m_hooks.onProbe) m_hooks.onProbe(p, m_engine.nowNs());
        for (auto* s : suspects)
            s->probe = p;
        return true;
    }
    if (!stopped) {
        judge(p, names + (suspects.size() > 1 ? " together" : ""), victimKey, { b0, b1, d0, d1 });
        if (p.verdict == "culprit" && result.verdictNs == 0) result.verdictNs = m_engine.nowNs() - m_start;
    }
    for (auto* s : suspects) {
        // A joint probe adds to what each member's own probe found; it does not replace it.
        if (suspects.size() > 1 && s->probe) p.alone = s->probe->sentence;
        s->probe = p;
    }
    if (m_hooks.onProbe) m_hooks.onProbe(p, m_engine.nowNs());
    if (!stopped && !m_recorder->record(m_s.probeSettleNs, m_obs.polls)) return false; // the restore settles
    return !stopped;
}

void BlameRunner::judge(ProbeResult& p, const std::string& names, const GroupDomain& victimKey, Spans spans)
{
    const auto [b0, b1, d0, d1] = spans;
    const auto before = spanOf(m_obs.polls, victimKey, b0, b1);
    const auto during = spanOf(m_obs.polls, victimKey, d0, d1);
    if (before && during) {
        p.victimOccupancyBefore = before->occupancyBytes;
        p.victimOccupancyDuring = during->occupancyBytes;
        p.victimMissBpsBefore = before->fillBps;
        p.victimMissBpsDuring = during->fillBps;
        const auto vm = m_obs.masks.find(victimKey);
        double lost = before->occupancyBytes;
        if (m_obs.bytesPerWay && vm != m_obs.masks.end()) {
            const double capacity
                = static_cast<double>(std::popcount(vm->second)) * static_cast<double>(m_obs.bytesPerWay);
            if (capacity > before->occupancyBytes) lost = capacity - before->occupancyBytes;
        }
        lost = std::max(lost, 1.0);
        p.occupancyRecovered = (during->occupancyBytes - before->occupancyBytes) / lost;
        p.uncertainty = 2
            * std::sqrt(before->occupancyStdError * before->occupancyStdError
                + during->occupancyStdError * during->occupancyStdError)
            / lost;
        p.missReduction = before->fillBps > 0 ? (before->fillBps - during->fillBps) / before->fillBps : 0;
        const auto pb = pmuSpanOf(m_obs.polls, b0, b1), pd = pmuSpanOf(m_obs.polls, d0, d1);
        if (pb && pd) {
            p.ipcBefore = pb->ipc;
            p.ipcDuring = pd->ipc;
            if (pb->ipc > 0) p.ipcGain = (pd->ipc - pb->ipc) / pb->ipc;
        }
        p.verdict = verdictOf(p);
        char buf[640];
        std::snprintf(buf, sizeof buf,
            "fencing %s (%s) gave %s back %s of its lost occupancy (+- %s) and changed its memory traffic by "
            "%+.0f %%%s: %s",
            names.c_str(), p.fence.c_str(), displayGroup(m_obs.victim).c_str(), pct(p.occupancyRecovered).c_str(),
            pct(p.uncertainty).c_str(), -p.missReduction * 100,
            p.ipcGain
                ? (", its IPC by " + std::to_string(static_cast<int>(std::lround(*p.ipcGain * 100))) + " %").c_str()
                : "",
            p.verdict.c_str());
        p.sentence = buf;
    } else {
        p.verdict = "inconclusive";
        p.sentence = "the victim's counters could not be read during the probe of " + names;
    }
}

/// The group a task of the default group is moved into while it is probed.
constexpr const char* kTaskProbeGroup = "rdtscope-blame-task";

bool BlameRunner::probeTask(Suspect& t, const Capabilities& caps, BlameResult& result)
{
    ProbeResult p;
    p.group = t.group;
    p.domain = t.domain;
    const unsigned pid = *t.task;
    const std::string name = taskSuspectName(pid, t.comm);
    const auto snap = m_engine.snapshot();
    if (!snap.result.ok) {
        result.notes.push_back("probe of " + name + " not run: " + snap.result.toString());
        return true;
    }
    // The fence the default group would get, written to a group of the task's own.
    auto fence = planFence(caps, snap.groups, "", m_obs.victim, t.resource);
    if (!fence) {
        result.notes.push_back("probe of " + name + " not run: " + fence.error().toString());
        return true;
    }
    p.resource = fence->resource;
    p.fence = std::string(kTaskProbeGroup) + " " + fence->text;
    const GroupDomain victimKey { m_obs.victim, t.domain };
    const std::size_t b0 = m_obs.polls.size();
    if (!m_recorder->record(m_s.probeMeasureNs, m_obs.polls)) return false;
    const std::size_t b1 = m_obs.polls.size();
    phase("probe: moving " + name + " into " + kTaskProbeGroup + " with " + fence->text);
    std::optional<std::string> refused;
    bool created = false, moved = false;
    if (const auto c = m_engine.createGroup(kTaskProbeGroup); !c.ok)
        refused = "creating " + std::string(kTaskProbeGroup) + ": " + c.toString();
    else
        created = true;
    ++p.writes;
    if (!refused) {
        const auto out = m_engine.applyAllocation(kTaskProbeGroup, fence->change);
        ++p.writes;
        if (!out.result.ok) refused = "fencing " + std::string(kTaskProbeGroup) + ": " + out.result.toString();
    }
    if (!refused) {
        const auto out = m_engine.assignTasks(kTaskProbeGroup, { pid });
        ++p.writes;
        if (!out.ok)
            refused = "moving " + name + ": " + out.toString();
        else
            moved = true;
    }
    p.log.push_back(name + ": "
        + (refused ? "FAILED " + *refused : "moved into " + std::string(kTaskProbeGroup) + " (" + fence->text + ")"));
    bool stopped = false;
    std::size_t d0 = 0, d1 = 0;
    if (!refused) {
        stopped = !m_recorder->record(m_s.probeSettleNs, m_obs.polls);
        d0 = m_obs.polls.size();
        stopped = stopped || !m_recorder->record(m_s.probeMeasureNs, m_obs.polls);
        d1 = m_obs.polls.size();
    }
    // Back however the probe ended: the task into the default group, the probe's group removed, both read back.
    bool ok = true;
    if (moved) {
        const auto back = m_engine.assignTasks("", { pid });
        ++p.writes;
        ok = back.ok;
        p.log.push_back(name + ": " + (back.ok ? "moved back into default" : "moving back FAILED " + back.toString()));
    }
    if (created) {
        const auto removed = m_engine.deleteGroup(kTaskProbeGroup);
        ++p.writes;
        ok = ok && removed.ok;
        p.log.push_back(
            std::string(kTaskProbeGroup) + ": " + (removed.ok ? "removed" : "removing FAILED " + removed.toString()));
    }
    const auto after = m_engine.snapshot(true);
    ok = ok && after.result.ok;
    for (const auto& g : after.groups) {
        if (g.info.path == kTaskProbeGroup) ok = false;
        if (moved && g.info.path.empty() && std::find(g.tasks.begin(), g.tasks.end(), pid) == g.tasks.end()) {
            // A task that ended meanwhile is in no group: nothing to restore. One still alive elsewhere is not back.
            for (const auto& other : after.groups)
                if (std::find(other.tasks.begin(), other.tasks.end(), pid) != other.tasks.end()) ok = false;
        }
    }
    p.restored = ok;
    result.probeWrites += p.writes;
    result.restored = result.restored && p.restored;
    if (refused) {
        result.notes.push_back("probe of " + name + " refused: " + *refused);
    } else if (!stopped) {
        judge(p, name, victimKey, { b0, b1, d0, d1 });
        if (p.verdict == "culprit" && result.verdictNs == 0) result.verdictNs = m_engine.nowNs() - m_start;
    }
    t.probe = p;
    if (m_hooks.onProbe) m_hooks.onProbe(p, m_engine.nowNs());
    if (!stopped && !refused && !m_recorder->record(m_s.probeSettleNs, m_obs.polls)) return false;
    return !stopped;
}

bool BlameRunner::probeDefaultTasks(const Capabilities& caps, BlameResult& result, std::uint64_t& budget)
{
    const auto def = std::find_if(
        result.ranking.begin(), result.ranking.end(), [](const Suspect& s) { return s.group.empty() && !s.task; });
    if (def == result.ranking.end()) return true;
    const bool hurts = def->probe ? def->probe->verdict == "culprit" : passivelyBlamed(*def);
    if (!hurts) return true;
    const auto snap = m_engine.snapshot(true);
    std::vector<unsigned> pids;
    for (const auto& g : snap.groups)
        if (g.info.path.empty()) pids = g.tasks;
    if (pids.empty()) {
        result.notes.push_back("the default group's tasks could not be listed: it is judged as one suspect");
        return true;
    }
    std::map<unsigned, TaskStat> after;
    if (!m_taskStatsBefore.empty()) after = readTaskStats(pids);
    const double seconds = static_cast<double>(m_recorder->elapsedNs()) / 1e9;
    const long hz = ::sysconf(_SC_CLK_TCK);
    const auto busy
        = busiestTasks(pids, m_taskStatsBefore, after, seconds, hz > 0 ? static_cast<unsigned>(hz) : 0, kMaxTaskProbes);
    result.notes.push_back(m_taskStatsBefore.empty()
            ? "the default group's tasks have no CPU time here (" + m_taskStatsWhy + "): its first "
                + std::to_string(busy.size()) + " task(s) as the engine lists them are probed"
            : "the default group's busiest task(s) by CPU time (/proc/PID/stat) are probed");
    std::vector<Suspect> tasks;
    for (const auto& b : busy) {
        Suspect t;
        t.group = "";
        t.task = b.pid;
        t.comm = b.comm;
        t.domain = def->domain;
        t.resource = def->resource;
        char buf[320];
        std::snprintf(buf, sizeof buf,
            "a task of the default group%s: resctrl counts per group, not per task, so it has no passive evidence of "
            "its own (the default group's row holds the group's); its probe judges it",
            b.cpuShare
                ? (" using " + std::to_string(static_cast<int>(std::lround(*b.cpuShare * 100))) + " % of a CPU").c_str()
                : "");
        t.sentence = buf;
        tasks.push_back(std::move(t));
    }
    const std::uint64_t perProbe = 2 * m_s.probeSettleNs + 2 * m_s.probeMeasureNs;
    for (auto& t : tasks) {
        if (budget < perProbe) {
            result.notes.push_back("probe budget spent: " + taskSuspectName(*t.task, t.comm) + " and below not probed");
            break;
        }
        budget -= perProbe;
        if (!probeTask(t, caps, result)) {
            result.ranking.insert(result.ranking.end(), tasks.begin(), tasks.end());
            return false;
        }
    }
    result.ranking.insert(result.ranking.end(), tasks.begin(), tasks.end());
    return true;
}

bool BlameRunner::contain(const Suspect& culprit, const Capabilities& caps, BlameResult& result)
{
    const GroupDomain victimKey { m_obs.victim, culprit.domain };
    ContainmentNeed need;
    need.culpritBps = culprit.fillBps;
    need.effect = culprit.effect;
    // The victim's ways: the knee of its misses with the culprit isolated (blame/VictimKnee.h).
    if (m_obs.cat) {
        phase("knee: sweeping " + displayGroup(m_obs.victim) + "'s ways with " + displayGroup(culprit.group)
            + " isolated, for its knee");
        VictimKneeSettings ks;
        ks.victim = m_obs.victim;
        ks.culprit = culprit.group;
        ks.settleNs = m_s.probeSettleNs;
        ks.measureNs = m_s.probeMeasureNs;
        ks.pollNs = m_recorder->pollNs();
        ks.paced = m_s.paced || !result.simulated;
        experiment::SweepHooks sh;
        sh.stopRequested = m_hooks.stopRequested;
        sh.onEvent = m_hooks.onEvent;
        sh.onBatch = m_hooks.onBatch;
        const auto knee = measureVictimKnee(m_engine, ks, sh);
        m_recorder->catchUp();
        (void)m_engine.setSamplingInterval(m_recorder->pollNs());
        // The sweep's restore settles before the victim is measured for the containment.
        if (!m_recorder->record(m_s.probeSettleNs, m_obs.polls)) return false;
        if (m_hooks.stopRequested && m_hooks.stopRequested()) return false; // the sweep restored itself
        if (knee) {
            need.victimWays = knee->ways;
            need.waysText = knee->text;
            if (!knee->restored) {
                result.restored = false;
                result.notes.push_back("the victim's way sweep did not restore every group it changed");
            }
        } else {
            result.notes.push_back("--contain: no knee (" + knee.error().toString() + "); sized by occupancy instead");
        }
    }
    if (need.victimWays == 0) {
        // Without a knee: what the victim held while the culprit was fenced (else what it holds now), plus one way.
        double held = 0;
        for (const auto& d : result.harm.domains)
            if (d.domain == culprit.domain) held = d.occupancyBytes;
        if (culprit.probe && culprit.probe->victimOccupancyDuring > held) held = culprit.probe->victimOccupancyDuring;
        need.victimWays = waysForBytes(held, m_obs.bytesPerWay);
        char buf[200];
        std::snprintf(buf, sizeof buf, "%s held %.1f MiB: %u way(s) with one to spare",
            displayGroup(m_obs.victim).c_str(), held / 1048576.0, need.victimWays);
        need.waysText = buf;
        if (m_obs.cat && need.victimWays == 0) {
            Containment c;
            c.group = culprit.group;
            c.error = "neither a knee nor the way size (the CPUID does not describe the cache): the victim's need "
                      "cannot be put in ways";
            result.containment = c;
            return true;
        }
    }
    const auto layout = m_engine.allocationLayout();
    const auto snap = m_engine.snapshot();
    auto planned = !snap.result.ok ? Result<Containment>(snap.result.error())
        : !layout                  ? Result<Containment>(layout.error())
                                   : planContainment(caps, *layout, snap.groups, culprit.group, culprit.resource, need);
    Containment c;
    c.group = culprit.group;
    if (!planned) {
        c.error = planned.error().toString();
        result.containment = c;
        return true;
    }
    c = std::move(*planned);
    // The measured spans are bounded by markers, so `diff FILE --around-marker 'blame: contain:'` compares exactly
    // them (docs/BLAME.md "Recording").
    phase("before containing " + displayGroup(c.group) + ": measuring " + displayGroup(m_obs.victim));
    const std::size_t b0 = m_obs.polls.size();
    if (!m_recorder->record(m_s.probeMeasureNs, m_obs.polls)) return false;
    const std::size_t b1 = m_obs.polls.size();
    phase("contain: " + displayGroup(c.group) + " to " + c.text);
    const auto out = m_engine.applyAllocation(c.group, c.change);
    if (!out.result.ok) {
        c.error = out.result.toString();
        result.containment = c;
        return true;
    }
    c.applied = true;
    bool stopped = !m_recorder->record(m_s.probeSettleNs, m_obs.polls);
    if (!stopped)
        phase("after containing " + displayGroup(c.group) + " (settled): measuring " + displayGroup(m_obs.victim));
    const std::size_t a0 = m_obs.polls.size();
    stopped = stopped || !m_recorder->record(m_s.probeMeasureNs, m_obs.polls);
    const std::size_t a1 = m_obs.polls.size();
    if (stopped) {
        // A stop restores: the containment is undone like a probe.
        const auto undone = undoContainment(m_engine, c);
        c.applied = false;
        c.error = "stopped; " + std::string(undone.ok ? "undone" : "the undo FAILED: " + undone.toString());
        result.restored = result.restored && undone.ok;
        result.containment = c;
        return false;
    }
    const auto before = spanOf(m_obs.polls, victimKey, b0, b1), after = spanOf(m_obs.polls, victimKey, a0, a1);
    if (before && after) {
        c.victimOccupancyBefore = before->occupancyBytes;
        c.victimOccupancyAfter = after->occupancyBytes;
        c.victimMissBpsBefore = before->fillBps;
        c.victimMissBpsAfter = after->fillBps;
        double lost = std::max(before->occupancyBytes, 1.0);
        const auto vm = m_obs.masks.find(victimKey);
        if (m_obs.bytesPerWay && vm != m_obs.masks.end()) {
            const double capacity
                = static_cast<double>(std::popcount(vm->second)) * static_cast<double>(m_obs.bytesPerWay);
            if (capacity > before->occupancyBytes) lost = capacity - before->occupancyBytes;
        }
        c.occupancyRecovered = (after->occupancyBytes - before->occupancyBytes) / lost;
        char buf[400];
        std::snprintf(buf, sizeof buf,
            "contained %s (%s, %u way(s) left to %s): %s got back %s of its lost occupancy (%.1f -> %.1f MiB) and its "
            "memory traffic went from %.0f to %.0f MB/s",
            displayGroup(c.group).c_str(), c.text.c_str(), c.victimWays, displayGroup(m_obs.victim).c_str(),
            displayGroup(m_obs.victim).c_str(), pct(c.occupancyRecovered).c_str(), c.victimOccupancyBefore / 1048576.0,
            c.victimOccupancyAfter / 1048576.0, c.victimMissBpsBefore / 1e6, c.victimMissBpsAfter / 1e6);
        c.sentence = buf;
        if (!c.bandwidthText.empty()) c.sentence += "; " + c.bandwidthText;
    } else {
        c.sentence = "contained " + displayGroup(c.group) + " (" + c.text
            + "); the victim's counters could not be read to measure its recovery";
    }
    result.containment = c;
    return true;
}

Result<BlameResult> BlameRunner::run()
{
    auto machine = m_engine.machine();
    if (!machine) return machine.error();
    const auto& caps = machine->capabilities;
    if (!caps.monitoring.present || !caps.monitoring.llcOccupancy)
        return errnoError(EOPNOTSUPP, "no L3 occupancy monitoring (CMT, SDM 20.18): blame has nothing to measure",
            "run it on a machine with RDT monitoring, or on the simulator (--source sim)");
    const auto snap = m_engine.snapshot();
    if (!snap.result.ok) return snap.result.error();
    const auto victim = std::find_if(
        snap.groups.begin(), snap.groups.end(), [&](const engine::GroupState& g) { return g.info.path == m_s.victim; });
    if (victim == snap.groups.end())
        return errnoError(ENOENT, "no group '" + displayGroup(m_s.victim) + "'", "rdtscope-cli groups list names them");
    if (!victim->info.isControl)
        return errnoError(EINVAL, "'" + displayGroup(m_s.victim) + "' is a monitor group",
            "name its control group (" + displayGroup(victim->info.parent) + "): suspects are control groups");
    if (m_s.probe || m_s.contain) {
        const auto& w = m_engine.source().writability;
        if (!w.writable)
            return errnoError(EROFS,
                std::string(m_s.probe ? "--probe" : "--contain")
                    + " needs to write allocations and this source cannot: " + w.text(),
                "run without --probe for the passive ranking");
        if (!caps.hasAllocation())
            return errnoError(EOPNOTSUPP, "--probe fences suspects with CAT or MBA and this machine has neither",
                "run without --probe for the passive ranking");
    }

    BlameResult result;
    result.simulated = m_engine.source().simulated;
    m_start = m_engine.nowNs();
    m_obs.victim = m_s.victim;
    m_obs.cat = caps.resource("L3") || caps.resource("L3DATA");
    if (const auto* l3 = caps.resource(caps.resource("L3") ? "L3" : "L3DATA")) m_obs.bytesPerWay = l3->bytesPerBit;
    for (const auto& g : snap.groups) {
        if (!g.info.isControl) continue;
        if (g.info.path != m_s.victim) m_obs.suspects.push_back(g.info.path);
        for (const int d : caps.monitoring.domains)
            if (const auto m = maskOf(g.schemata, d)) m_obs.masks[{ g.info.path, d }] = m;
    }
    const bool paced = m_s.paced || !result.simulated;
    const bool held = m_engine.holdScenarioSteps(true);
    if (held)
        result.notes.push_back("the scenario's timed steps are held during blame (a step changing an allocation would "
                               "be taken for a neighbour's effect) and run after it");
    const auto previousInterval = m_engine.samplingIntervalNs();
    PollRecorder::Hooks ph;
    ph.stopRequested = m_hooks.stopRequested;
    ph.onEvent = m_hooks.onEvent;
    ph.onBatch = m_hooks.onBatch;
    m_recorder = std::make_unique<PollRecorder>(
        m_engine, m_s.pollNs, caps.monitoring.counterWidth, paced, m_s.victim, std::move(ph));
    (void)m_engine.setSamplingInterval(m_recorder->pollNs());
    m_obs.windowPolls = std::max<std::size_t>(2, m_s.windowNs / std::max<std::uint64_t>(m_recorder->pollNs(), 1));

    if (m_s.probe) {
        // Which of the default group's tasks are busiest: their CPU time, where the engine's tasks are this host's.
        if (result.simulated)
            m_taskStatsWhy = "simulated threads: the engine has no per-task CPU time";
        else if (!m_engine.location().empty())
            m_taskStatsWhy = "the tasks run on " + m_engine.location() + ", not on this host";
        else
            for (const auto& g : m_engine.snapshot(true).groups)
                if (g.info.path.empty()) m_taskStatsBefore = readTaskStats(g.tasks);
        if (m_taskStatsWhy.empty() && m_taskStatsBefore.empty()) m_taskStatsWhy = "/proc has none of them";
    }
    phase("observing " + displayGroup(m_s.victim) + " and its neighbours");
    result.stopped = !m_recorder->record(m_s.durationNs, m_obs.polls);
    m_obs.passiveEnd = m_obs.polls.size();
    m_obs.pmuMethod = m_recorder->pmuMethod();
    m_obs.pmuUnavailable = m_recorder->pmuUnavailable();
    result.passiveNs = m_recorder->elapsedNs();
    result.harm = victimHarmOf(m_obs);
    result.ranking = rankSuspects(m_obs, result.harm);
    for (const auto& s : result.ranking)
        result.passiveOrder.push_back(s.group);
    // A copied resctrl tree (or an idle machine) moves no counter: no ranking can come of it, and it is said.
    bool moved = false;
    for (const auto& s : result.ranking)
        moved = moved || s.fillBps > 0;
    for (const auto& d : result.harm.domains)
        moved = moved || d.missBps > 0;
    if (!moved)
        result.notes.push_back("no memory traffic moved on any group during the observation (a static resctrl tree "
                               "or an idle machine): the ranking has no evidence");
    if (!m_s.probe) result.verdictNs = result.passiveNs;

    if (m_s.probe && !result.stopped && !result.harm.domains.empty()) {
        result.probed = true;
        const std::uint64_t perProbe = 2 * m_s.probeSettleNs + 2 * m_s.probeMeasureNs;
        std::uint64_t budget = m_s.probeBudgetNs;
        unsigned done = 0;
        for (auto& s : result.ranking) {
            if (done >= m_s.maxProbes) break;
            // A suspect with no fills into the victim's ways cannot give anything back: not worth a write.
            if (s.windows == 0 || s.fillBps <= 0 || s.effect < kProbeMinimumEffect) continue;
            if (budget < perProbe) {
                result.notes.push_back("probe budget spent: " + displayGroup(s.group) + " and below not probed");
                break;
            }
            budget -= perProbe;
            ++done;
            if (!probe({ &s }, caps, result)) {
                result.stopped = true;
                break;
            }
        }
        // Several culprits can each fill what a fence of one of them frees: fenced alone, none gives much back. When
        // no probe named a culprit and two or more probed suspects carry passive blame, they are fenced together.
        std::vector<Suspect*> joint;
        bool anyCulprit = false;
        for (auto& s : result.ranking) {
            if (!s.probe || s.probe->verdict.empty()) continue;
            anyCulprit = anyCulprit || s.probe->verdict == "culprit";
            if (passivelyBlamed(s)) joint.push_back(&s);
        }
        if (!result.stopped && !anyCulprit && joint.size() >= 2) {
            if (budget < perProbe) {
                result.notes.push_back("probe budget spent: the suspects were not fenced together");
            } else if (!probe(joint, caps, result)) {
                result.stopped = true;
            }
        }
        if (!result.stopped && !probeDefaultTasks(caps, result, budget)) result.stopped = true;
        // Probed culprits first (by what the fence gave back), then the unprobed by their passive effect, then the
        // suspects a probe cleared.
        const auto rank = [](const Suspect& s) {
            if (!s.probe || s.probe->verdict.empty()) return 1;
            return s.probe->verdict == "culprit" ? 0 : 2;
        };
        std::stable_sort(result.ranking.begin(), result.ranking.end(), [&](const Suspect& a, const Suspect& b) {
            if (rank(a) != rank(b)) return rank(a) < rank(b);
            if (rank(a) == 0) return a.probe->occupancyRecovered > b.probe->occupancyRecovered;
            return false;
        });
    }
    if (m_s.contain && !result.stopped && !result.harm.domains.empty()) {
        const Suspect* culprit = nullptr;
        for (const auto& s : result.ranking)
            if (!culprit && !s.task && (s.probe ? s.probe->verdict == "culprit" : !m_s.probe && passivelyBlamed(s)))
                culprit = &s; // a task is contained with its group (the default group), not on its own
        if (!culprit)
            result.notes.push_back("--contain: no culprit to contain");
        else if (!contain(*culprit, caps, result))
            result.stopped = true;
    }
    if (m_s.probe && result.verdictNs == 0 && !result.ranking.empty() && passivelyBlamed(result.ranking.front()))
        result.notes.push_back("no probe gave a causal verdict: the ranking is passive evidence only");
    result.elapsedNs = m_engine.nowNs() - m_start;
    (void)m_engine.setSamplingInterval(previousInterval);
    if (held) m_engine.holdScenarioSteps(false);
    return result;
}

} // namespace

std::string verdictOf(const ProbeResult& p)
{
    // Culprit: the fence gave back at least 5 % of the victim's lost occupancy, beyond the measurement's interval, or
    // cut its misses by at least 10 % without costing it occupancy. Innocent: neither is possible within the
    // interval. A group that holds a little of the victim's space (a fence gives back 2-3 %) is not called a culprit.
    const bool occupancy = p.occupancyRecovered >= 0.05 && p.occupancyRecovered > p.uncertainty;
    const bool misses = p.missReduction >= 0.10 && p.occupancyRecovered > -p.uncertainty;
    if (occupancy || misses) return "culprit";
    if (p.occupancyRecovered + p.uncertainty < 0.05 && p.missReduction < 0.10) return "innocent";
    return "inconclusive";
}

Result<BlameResult> runBlame(engine::Engine& engine, const BlameSettings& settings, const BlameHooks& hooks)
{
    BlameRunner runner(engine, settings, hooks);
    return runner.run();
}

Result<std::string> groupOfPid(engine::Engine& engine, unsigned pid)
{
    const auto snap = engine.snapshot(true);
    if (!snap.result.ok) return snap.result.error();
    for (const auto& g : snap.groups) {
        if (!g.info.isControl) continue;
        if (std::find(g.tasks.begin(), g.tasks.end(), pid) != g.tasks.end()) return g.info.path;
    }
    return errnoError(ESRCH, "no control group's tasks file holds PID " + std::to_string(pid),
        "check the PID (a thread of another process is named by its own TID)");
}

} // namespace rdt::blame

// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuLiveRun.h"

#include "engine/TargetSymbols.h"
#include "pmu/PerfSyscalls.h"
#include "pmu/PmuCpuid.h"
#include "pmu/Recipes.h"

#include <ctime>

namespace rdt::pmu {

namespace {
/// The sampling recipes set use_clockid = CLOCK_MONOTONIC, so TMA intervals stamped here share the samples' time axis.
std::uint64_t monotonicNowNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}
} // namespace

PmuLiveRun::~PmuLiveRun()
{
    for (auto& c : m_captures)
        if (c.session) (void)c.session->stop();
}

Result<LivePlan> PmuLiveRun::plan(PmuRecipeKind kind, const PerfEnvironment& env)
{
    LivePlan out;
    if (kind == PmuRecipeKind::CpuClock) {
        out.recipes.push_back(cpuClockRecipe(hostRecipeOptions(env, readPmuCpuid())));
        out.seriesOfRecipe.push_back(0);
        return out;
    }
    // One recipe per core PMU (cpu_core and cpu_atom on hybrid parts), as the CLI builds them. Each TMA recipe
    // counts into its own series: E-core slots (5 or 6 per cycle, level 1 only) never mix with P-core slots.
    auto built = buildLiveRecipes(kind, env);
    if (!built) return built.error();
    out.notes = std::move(built->notes);
    out.recipes = std::move(built->recipes);
    std::vector<std::string> labels;
    bool labelled = false;
    for (const Recipe& r : out.recipes) {
        if (!r.counting) {
            out.seriesOfRecipe.push_back(0);
            continue;
        }
        out.seriesOfRecipe.push_back(static_cast<std::uint32_t>(labels.size()));
        labels.push_back(r.pmuLabel.empty() ? r.pmuName : r.pmuLabel);
        labelled = labelled || !r.pmuLabel.empty();
    }
    if (labelled || labels.size() > 1) out.tmaSeries = std::move(labels);
    return out;
}

Result<std::unique_ptr<PmuLiveRun>> PmuLiveRun::start(PmuRecipeKind kind, const PerfTarget& target)
{
    if (kind != PmuRecipeKind::CpuClock) {
        const auto check = checkLiveRecipe(kind, target.systemWide);
        if (!check.available) return makeError("the PMU cannot run this recipe here", check.advice);
    }
    auto sys = std::make_unique<LinuxPerfSyscalls>();
    auto planned = plan(kind, sys->environment());
    if (!planned) return planned.error();
    return open(std::move(planned.value()), target, std::move(sys));
}

Result<std::unique_ptr<PmuLiveRun>> PmuLiveRun::open(
    LivePlan plan, const PerfTarget& target, std::unique_ptr<PerfSyscalls> sys)
{
    std::unique_ptr<PmuLiveRun> run(new PmuLiveRun);
    run->m_notes = std::move(plan.notes);
    run->m_tmaSeries = std::move(plan.tmaSeries);
    run->m_sys = std::move(sys);
    for (auto pid : target.pids)
        run->m_pids.push_back(static_cast<std::uint32_t>(pid));
    // A launched command is forked once for every recipe (perf's evlist__prepare_workload): every session opens
    // its events on the corked child with enable_on_exec, and the first start() lets it exec.
    auto sessions = openSessions(*run->m_sys, plan.recipes, target, 64);
    if (!sessions) return sessions.error();
    for (std::size_t i = 0; i < sessions->size(); ++i) {
        Capture c;
        c.counting = (*sessions)[i]->recipe().counting;
        c.series = i < plan.seriesOfRecipe.size() ? plan.seriesOfRecipe[i] : 0;
        c.session = std::move((*sessions)[i]);
        run->m_captures.push_back(std::move(c));
    }
    for (auto& c : run->m_captures)
        if (auto st = c.session->start(); !st) return st.error();
    return Result<std::unique_ptr<PmuLiveRun>>(std::move(run));
}

PmuData PmuLiveRun::makeData(const std::string& what) const
{
    PmuData d;
    d.kind = PmuSourceKind::Live;
    d.name = what;
    d.notes = m_notes; // e.g. which core PMU a hybrid part's capture left out
    d.tmaSeries = m_tmaSeries;
    // The same symbol sources the CLI's captures load (the engine's rule): /proc/PID/maps and kallsyms.
    engine::loadTargetSymbols(*d.symbols, m_pids);
    for (const auto& c : m_captures) // what the kernel made us change, e.g. a lowered precise_ip
        for (const auto& n : c.session->notes())
            d.notes.push_back(n);
    return d;
}

void PmuLiveRun::step(PmuData& data)
{
    for (auto& c : m_captures) {
        c.session->drain([&](const DecodedRecord& r) {
            data.symbols->onRecord(r);
            if (r.kind == RecordKind::Sample)
                addSample(data, r.sample, r.attr);
            else if (r.kind == RecordKind::Lost)
                data.lost += r.lost.lost;
        });
        if (!c.counting) continue;
        auto now = c.session->readGroups();
        if (!now) continue;
        if (c.haveLast)
            data.tma.push_back(PmuTmaPoint {
                monotonicNowNs(), tmaFromGroupRead(c.session->recipe(), deltaRead(*now, c.last)), c.series });
        c.last = std::move(now.value());
        c.haveLast = true;
    }
}

bool PmuLiveRun::finished()
{
    for (auto& c : m_captures)
        if (c.session->childPid() > 0 && c.session->childExited()) return true;
    return false;
}

} // namespace rdt::pmu

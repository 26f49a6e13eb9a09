// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuLiveRun.h"

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

Result<std::unique_ptr<PmuLiveRun>> PmuLiveRun::start(PmuRecipeKind kind, const PerfTarget& target)
{
    std::vector<Recipe> recipes;
    std::vector<std::string> notes; ///< PMUs left out, per-PMU limits (hybrid parts)
    LinuxPerfSyscalls sys;
    const PerfEnvironment env = sys.environment();
    const RecipeOptions opt = hostRecipeOptions(env, readPmuCpuid());
    if (kind == PmuRecipeKind::CpuClock) {
        recipes.push_back(cpuClockRecipe(opt));
    } else {
        const auto check = checkLiveRecipe(kind, target.systemWide);
        if (!check.available) return makeError("the PMU cannot run this recipe here", check.advice);
        // One recipe per core PMU (cpu_core and cpu_atom on hybrid parts), as the CLI builds them.
        auto built = buildLiveRecipes(kind, env);
        if (!built) return built.error();
        notes = std::move(built->notes);
        for (auto& r : built->recipes) {
            // UNFINISHED: the GUI's TMA models hold one breakdown series, so the E-core TMA group is not opened
            // here; `rdtscope-cli pmu tma` prints both PMUs' breakdowns. LBR and load-latency samples of both PMUs
            // are merged.
            if (r.counting && r.pmuName == "cpu_atom") {
                notes.push_back("TMA shows the P-cores (cpu_core) only; the E-core (cpu_atom) breakdown is printed "
                                "by `rdtscope-cli pmu tma`");
                continue;
            }
            recipes.push_back(std::move(r));
        }
    }
    std::unique_ptr<PmuLiveRun> run(new PmuLiveRun);
    run->m_notes = std::move(notes);
    run->m_sys = std::make_unique<LinuxPerfSyscalls>();
    // A launched command is forked once for every recipe (perf's evlist__prepare_workload): every session opens
    // its events on the corked child with enable_on_exec, and the first start() lets it exec.
    auto sessions = openSessions(*run->m_sys, recipes, target, 64);
    if (!sessions) return sessions.error();
    for (auto& s : sessions.value()) {
        Capture c;
        c.counting = s->recipe().counting;
        c.session = std::move(s);
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
            data.tma.push_back(
                PmuTmaPoint { monotonicNowNs(), tmaFromGroupRead(c.session->recipe(), deltaRead(*now, c.last)) });
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

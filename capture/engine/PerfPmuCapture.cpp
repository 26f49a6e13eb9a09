// SPDX-License-Identifier: GPL-3.0-or-later
// The real PMU as a capture of the service: one perf_event_open session per core PMU (cpu_core and cpu_atom on
// hybrid parts), a launched command forked once for every recipe, functions named from the records' mmaps,
// /proc/PID/maps of processes that were already running, and /proc/kallsyms.
#include "PmuCapture.h"

#include "TargetSymbols.h"
#include "pmu/CorePmus.h"
#include "pmu/PerfSession.h"
#include "pmu/PerfSyscalls.h"
#include "pmu/PmuCpuid.h"
#include "pmu/Recipes.h"

#include <cerrno>
#include <ctime>

namespace rdt::engine {

namespace {

/// The sampling recipes set use_clockid = CLOCK_MONOTONIC, so TMA intervals stamped here share the samples' clock.
std::uint64_t monotonicNowNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::vector<pmu::RecipeKind> recipeKinds(PmuCaptureKind kind)
{
    switch (kind) {
    case PmuCaptureKind::Tma:
        return { pmu::RecipeKind::Tma };
    case PmuCaptureKind::LoadLatency:
        return { pmu::RecipeKind::LoadLatency };
    case PmuCaptureKind::LbrCallStack:
        return { pmu::RecipeKind::LbrCallStack };
    case PmuCaptureKind::LbrAny:
        return { pmu::RecipeKind::LbrAny };
    case PmuCaptureKind::All:
        return { pmu::RecipeKind::Tma, pmu::RecipeKind::LbrCallStack, pmu::RecipeKind::LoadLatency };
    case PmuCaptureKind::CpuClock:
        break;
    }
    return {};
}

/// Why the hardware capture cannot run here: the recipe's reason plus what the kernel says to a plain hardware
/// event, so a VM without a PMU is named as such.
CommandResult unavailable(
    const Error& reason, const char* what, pmu::PerfSyscalls& sys, const pmu::PerfEnvironment& env)
{
    auto out = CommandResult::failure(reason);
    pmu::EventAttr probe;
    probe.type = pmu::TypeHardware;
    probe.config = 0; // cycles
    probe.size = pmu::perf::AttrSizeVer8;
    probe.setFlag(pmu::EventAttr::FlagDisabled, true);
    probe.setFlag(pmu::EventAttr::FlagExcludeKernel, true);
    probe.setFlag(pmu::EventAttr::FlagExcludeHv, true);
    auto fd = sys.open(probe, 0, -1, -1, 0);
    if (fd)
        out.notes.push_back(std::string("the kernel opens hardware events here, but this CPU model has no ") + what
            + " support we know how to use");
    else
        out.notes.push_back(pmu::openAdvice(fd.error().code, probe, "cycles", env, false).toString());
    return out;
}

class PerfPmuCapture final : public PmuCapture {
public:
    PerfPmuCapture(const PmuRequest& request, std::unique_ptr<pmu::PerfSyscalls> sys)
        : PmuCapture(request)
        , m_sys(std::move(sys))
    { }

    PmuFailure open(std::uint32_t id, CommandResult& result)
    {
        const pmu::PerfEnvironment env = m_sys->environment();
        if (m_request.kind == PmuCaptureKind::CpuClock) return openCpuClock(id, env, result);
        auto parts = pmu::corePmuParts(env);
        if (!parts) {
            result = unavailable(parts.error(), what(), *m_sys, env);
            return PmuFailure::Unavailable;
        }
        const pmu::PmuCpuid cpuid = pmu::readPmuCpuid();
        pmu::RecipeOptions ro = pmu::hostRecipeOptions(env, cpuid);
        ro.kernel = m_request.kernel;
        ro.ldlat = m_request.ldlat;
        pmu::PartRecipes all; // one recipe per kind and core PMU (hybrid parts: cpu_core and cpu_atom each)
        for (pmu::RecipeKind kind : recipeKinds(m_request.kind)) {
            auto built = pmu::recipesForParts(*parts, kind, ro);
            if (!built) {
                result = unavailable(built.error(), what(), *m_sys, env);
                return PmuFailure::Unavailable;
            }
            for (auto& r : built->recipes)
                all.recipes.push_back(std::move(r));
            for (auto& n : built->notes)
                all.notes.push_back(std::move(n));
        }
        const auto* built = &all;
        auto sessions = pmu::openSessions(*m_sys, built->recipes, target()); // a command is forked once per recipe
        if (!sessions) {
            result = CommandResult::failure(sessions.error());
            return PmuFailure::Open;
        }
        m_sessions = std::move(*sessions);
        if (auto f = startSessions(result); f != PmuFailure::None) return f;
        m_info.id = id;
        m_info.pmusUsed = pmu::describeParts(*parts);
        m_info.lbrDepth = cpuid.lbrDepth;
        m_info.notes = built->notes; // a PMU left out, e.g. E-core TMA on an unverified model
        for (const auto& s : m_sessions) {
            const auto& r = s->recipe();
            m_info.parts.push_back({ r.pmuName, r.pmuLabel, r.description, pmu::recipeHasTmaLevel2(r), r.counting });
        }
        for (const auto& s : m_sessions)
            for (const auto& note : s->notes()) // e.g. "precise_ip lowered to 1 ...: the PMU refused 2"
                m_info.notes.push_back(note);
        m_intervals.resize(m_sessions.size()); // used by the counting sessions only
        for (std::size_t i = 0; i < m_sessions.size(); ++i) {
            if (m_sessions[i]->recipe().counting) {
                pmu::ReadData zero;
                zero.values.resize(m_sessions[i]->recipe().events.size());
                m_intervals[i].start(zero);
            }
        }
        result = CommandResult::success();
        return PmuFailure::None;
    }

    PmuBatch pump() override
    {
        drainAll();
        PmuBatch b = batch();
        b.finished = finished();
        return b;
    }

    Result<PmuBatch> readCounters() override
    {
        PmuBatch b = batch();
        auto rows = readTma(b.seconds);
        if (!rows) return rows.error();
        b.tma = std::move(*rows);
        b.finished = finished();
        return b;
    }

    bool finished() override
    {
        for (auto& s : m_sessions)
            if (s->childExited()) return true;
        return false;
    }

    void stop() override
    {
        if (m_stopped) return;
        m_stopped = true;
        for (auto& s : m_sessions) {
            (void)s->stop();
            s->drain([this](const pmu::DecodedRecord& r) { consume(r); });
        }
        if (auto rows = readTma(secondsSinceStart())) m_stopRows = std::move(*rows);
    }

    ~PerfPmuCapture() override { stop(); }

protected:
    void fillReport(PmuReport& r) override
    {
        for (const auto& s : m_sessions)
            r.parts.push_back({ s->recipe().pmuLabel, s->ringStats(), s->decodeErrors() });
    }

private:
    pmu::PerfTarget target() const
    {
        pmu::PerfTarget t;
        for (auto p : m_request.pids)
            t.pids.push_back(static_cast<pid_t>(p));
        t.command = m_request.command;
        t.systemWide = m_request.systemWide;
        return t;
    }

    PmuFailure startSessions(CommandResult& result)
    {
        for (auto& s : m_sessions)
            if (auto st = s->start(); !st) {
                result = CommandResult::failure(st.error());
                return PmuFailure::Start;
            }
        // After the start, before the first pump consumes a sample: reading kallsyms takes a while on a loaded
        // machine, and the rings fill meanwhile instead of the target running uncounted.
        loadTargetSymbols(m_symbols, m_request.pids);
        return PmuFailure::None;
    }

    /// The software cpu-clock recipe: no hardware PMU needed, so it runs in VMs too.
    PmuFailure openCpuClock(std::uint32_t id, const pmu::PerfEnvironment& env, CommandResult& result)
    {
        const auto recipe = pmu::cpuClockRecipe(pmu::hostRecipeOptions(env, pmu::readPmuCpuid()));
        auto sessions = pmu::openSessions(*m_sys, { recipe }, target());
        if (!sessions) {
            result = CommandResult::failure(sessions.error());
            return PmuFailure::Open;
        }
        m_sessions = std::move(*sessions);
        if (auto f = startSessions(result); f != PmuFailure::None) return f;
        m_info.id = id;
        m_info.pmusUsed = "software (cpu-clock)";
        m_info.parts.push_back({ "", "", recipe.description, false, false });
        result = CommandResult::success();
        return PmuFailure::None;
    }

    const char* what() const
    {
        return m_request.kind == PmuCaptureKind::Tma        ? "tma"
            : m_request.kind == PmuCaptureKind::LoadLatency ? "mem"
            : m_request.kind == PmuCaptureKind::All         ? "TMA, LBR or PEBS"
                                                            : "lbr";
    }

    void drainAll()
    {
        for (auto& s : m_sessions)
            s->drain([this](const pmu::DecodedRecord& r) { consume(r); });
    }

    Result<std::vector<PmuTmaRow>> readTma(double seconds)
    {
        std::vector<PmuTmaRow> rows;
        for (std::size_t i = 0; i < m_sessions.size(); ++i) {
            const pmu::Recipe& r = m_sessions[i]->recipe();
            if (!r.counting) continue;
            auto now = m_sessions[i]->readGroups();
            if (!now) return now.error();
            const auto& iv = m_intervals[i].add(static_cast<std::uint64_t>(seconds * 1e9), *now,
                [&](const pmu::ReadData& d) { return pmu::tmaFromGroupRead(r, d); });
            rows.push_back({ static_cast<std::uint32_t>(i), seconds, iv.breakdown, monotonicNowNs() });
        }
        return rows;
    }

    std::unique_ptr<pmu::PerfSyscalls> m_sys;
    std::vector<std::unique_ptr<pmu::PerfSession>> m_sessions;
    bool m_stopped = false;
};

} // namespace

std::unique_ptr<PmuCapture> startPerfPmuCapture(
    std::uint32_t id, const PmuRequest& request, PmuStarted& out, std::unique_ptr<pmu::PerfSyscalls> sys)
{
    if (!sys) sys = std::make_unique<pmu::LinuxPerfSyscalls>();
    auto capture = std::make_unique<PerfPmuCapture>(request, std::move(sys));
    out.failure = capture->open(id, out.result);
    if (out.failure != PmuFailure::None) return nullptr;
    out.info = capture->info();
    return capture;
}

} // namespace rdt::engine

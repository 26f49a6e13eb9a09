// SPDX-License-Identifier: GPL-3.0-or-later
// perf's precise_ip fallback (tools/perf/util/evsel.c evsel__precise_ip_fallback) through a fake PerfSyscalls that
// refuses precise_ip above a limit: PerfSession retries one lower down to the recipe's minimum (1 for PEBS load
// latency, 0 for a cycles sample), keeps the lowered value for the next targets, and says what it did.
#include "EngineChild.h"
#include "pmu/EventEncoder.h"
#include "pmu/PerfSession.h"
#include "pmu/Recipes.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace rdt::pmu;
using rdt::Result;
using rdt::Status;
using rdt::UniqueFd;
using rdt::pmu::test::runInChild;

namespace {

/// A PMU that cannot give precise_ip above `maxPrecise` (a PEBS-less or older core) and says so with `refusal`.
class PreciseLimitedPerf final : public PerfSyscalls {
public:
    PreciseLimitedPerf(unsigned maxPrecise, int refusal)
        : m_max(maxPrecise)
        , m_refusal(refusal)
    { }
    std::vector<unsigned> tried; ///< precise_ip of every open, in order

    Result<UniqueFd> open(const EventAttr& attr, pid_t, int, int, unsigned long) override
    {
        tried.push_back(attr.preciseIp());
        if (attr.preciseIp() > m_max) return rdt::errnoError(m_refusal, "perf_event_open");
        return UniqueFd(::eventfd(0, EFD_CLOEXEC));
    }
    Status ioctl(int, unsigned long, unsigned long) override { return {}; }
    Result<rdt::MappedRegion> mmap(int, std::size_t size) override
    {
        // Zeroed anonymous memory reads as an empty ring whose data area follows the first page.
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return rdt::errnoError(errno, "mmap");
        return rdt::MappedRegion(p, size);
    }
    Result<std::size_t> read(int, std::span<std::byte>) override { return rdt::makeError("no reads"); }
    PerfEnvironment environment() override
    {
        PerfEnvironment env;
        env.hasCpuPmu = true;
        return env;
    }

private:
    unsigned m_max;
    int m_refusal;
};

enum class Which { LoadLatency, CyclesPP };

/// Runs in a child with LIBPFM_FORCE_PMU=pmu: opens the recipe on this process (its one thread on each online
/// CPU: several groups) against the fake, and describes what happened on one line per fact.
std::string openLimited(const char* pmu, Which which, unsigned maxPrecise, int refusal)
{
    return runInChild(pmu, [=] {
        std::ostringstream out;
        auto enc = EventEncoder::create();
        if (!enc) return "ENCERR " + enc.error().message;
        Result<Recipe> recipe
            = which == Which::LoadLatency ? loadLatencyRecipe(*enc) : lbrRecipe(*enc, LbrMode::AnyBranch);
        if (!recipe) return "RECIPEERR " + recipe.error().message;
        if (which == Which::CyclesPP) recipe->events[0].attr.setPreciseIp(2); // cycles:pp
        PreciseLimitedPerf sys(maxPrecise, refusal);
        PerfTarget target;
        target.pids = { ::getpid() };
        auto s = PerfSession::open(sys, *recipe, target, 8);
        out << "tried";
        for (unsigned p : sys.tried)
            out << ' ' << p;
        out << '\n';
        if (!s) {
            out << "error " << s.error().code << '\n' << "advice " << s.error().advice << '\n';
            return out.str();
        }
        out << "groups " << (*s)->groupCount() << '\n';
        for (std::size_t i = 0; i < recipe->events.size(); ++i)
            out << "event " << (*s)->requestedPreciseIp(i) << ' ' << (*s)->usedPreciseIp(i) << ' '
                << recipe->events[i].minPreciseIp << '\n';
        for (const auto& e : (*s)->recipe().events)
            out << "name " << e.name << '\n';
        for (const auto& n : (*s)->notes())
            out << "note " << n << '\n';
        return out.str();
    });
}

std::vector<std::string> linesStarting(const std::string& text, const std::string& prefix)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
    return out;
}

std::size_t onlineCpuCount()
{
    return static_cast<std::size_t>(::sysconf(_SC_NPROCESSORS_ONLN));
}

} // namespace

TEST(PreciseFallback, LoadLatencyDropsToOneAndKeepsItForTheNextTargets)
{
    const std::string text = openLimited("icl", Which::LoadLatency, 1, EOPNOTSUPP);
    ASSERT_EQ(linesStarting(text, "groups ").size(), 1u) << text;
    const std::size_t groups = std::stoul(linesStarting(text, "groups ")[0]);
    EXPECT_GE(groups, 1u);
    // First group: 2 refused, 1 accepted; every later group starts at 1.
    std::string want = "2 1";
    for (std::size_t g = 1; g < groups; ++g)
        want += " 1";
    EXPECT_EQ(linesStarting(text, "tried ").at(0), want) << text;
    EXPECT_EQ(linesStarting(text, "event "), std::vector<std::string> { "2 1 1" }) << text;
    const auto notes = linesStarting(text, "note ");
    ASSERT_EQ(notes.size(), 1u) << text;
    EXPECT_EQ(notes[0], "precise_ip lowered to 1 for MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30: the PMU refused 2")
        << text;
    EXPECT_EQ(linesStarting(text, "name ").at(0), "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30:precise=1") << text;
}

TEST(PreciseFallback, LoadLatencyNeverGoesBelowPebs)
{
    const std::string text = openLimited("icl", Which::LoadLatency, 0, EOPNOTSUPP);
    EXPECT_EQ(linesStarting(text, "tried ").at(0), "2 1") << "precise_ip 0 would not be PEBS: " << text;
    EXPECT_EQ(linesStarting(text, "error ").at(0), std::to_string(EOPNOTSUPP)) << text;
    EXPECT_NE(linesStarting(text, "advice ").at(0).find("every precise_ip from 2 down to 1"), std::string::npos)
        << text;
}

TEST(PreciseFallback, EinvalAlsoFallsBackOtherErrorsDoNot)
{
    const std::string einval = openLimited("icl", Which::LoadLatency, 1, EINVAL);
    EXPECT_EQ(linesStarting(einval, "event "), std::vector<std::string> { "2 1 1" }) << einval;
    const std::string eacces = openLimited("icl", Which::LoadLatency, 1, EACCES);
    EXPECT_EQ(linesStarting(eacces, "tried ").at(0), "2") << "permission is no precision problem: " << eacces;
    EXPECT_EQ(linesStarting(eacces, "error ").at(0), std::to_string(EACCES)) << eacces;
}

TEST(PreciseFallback, SapphireRapidsLowersTheAuxLeaderAndTheLoadEvent)
{
    const std::string text = openLimited("spr", Which::LoadLatency, 1, EOPNOTSUPP);
    EXPECT_EQ(linesStarting(text, "event "), (std::vector<std::string> { "2 1 1", "2 1 1" })) << text;
    EXPECT_EQ(linesStarting(text, "note ").size(), 2u) << text;
}

TEST(PreciseFallback, CyclesSampleMayLoseAllPrecision)
{
    const std::string text = openLimited("icl", Which::CyclesPP, 0, EOPNOTSUPP);
    EXPECT_EQ(linesStarting(text, "event "), std::vector<std::string> { "2 0 0" }) << text;
    EXPECT_EQ(linesStarting(text, "tried ").at(0).substr(0, 5), "2 1 0") << text;
    const auto notes = linesStarting(text, "note ");
    ASSERT_EQ(notes.size(), 1u) << text;
    EXPECT_NE(notes[0].find("precise_ip lowered to 0"), std::string::npos) << notes[0];
    EXPECT_NE(notes[0].find("refused 1 (asked for 2); samples have skid"), std::string::npos) << notes[0];
}

TEST(PreciseFallback, NothingChangesWhenThePmuAccepts)
{
    const std::string text = openLimited("icl", Which::LoadLatency, 3, EOPNOTSUPP);
    EXPECT_EQ(linesStarting(text, "event "), std::vector<std::string> { "2 2 1" }) << text;
    EXPECT_TRUE(linesStarting(text, "note ").empty()) << text;
    EXPECT_EQ(linesStarting(text, "groups ").at(0), std::to_string(onlineCpuCount())) << text;
}

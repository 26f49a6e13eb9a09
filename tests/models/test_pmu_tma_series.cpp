// SPDX-License-Identifier: GPL-3.0-or-later
// TMA per core PMU on hybrid parts: PmuData carries one TMA series per core PMU (P-cores with level 2, E-cores with
// level 1 only), PmuSession aggregates each over the same time range, ::TmaModel shows no level-2 rows for the
// E-cores, and a live capture through the engine keeps the cpu_atom TMA recipe (the capture service over a fake
// perf_event_open on an Alder Lake / Meteor Lake environment; no hardware needed).
#include "../pmu/HybridEnv.h"
#include "engine/CaptureService.h"
#include "models/PmuCaptureRun.h"
#include "models/PmuSession.h"
#include "models/TmaModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <linux/perf_event.h>
#include <map>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace rdt::pmu;
using rdt::pmu::test::hybridEnv;

namespace {

constexpr std::uint64_t kT0 = 5'000'000'000; ///< first interval end, ns

TmaBreakdown pCore(double retiring, double badSpec, double fe, double slots)
{
    TmaBreakdown b;
    b.valid = true;
    b.slots = slots;
    b.level1 = { retiring, badSpec, fe, 1.0 - retiring - badSpec - fe };
    b.level2.present = true;
    b.level2.heavyOperations = retiring / 4;
    b.level2.lightOperations = retiring - retiring / 4;
    b.level2.branchMispredicts = badSpec / 2;
    b.level2.machineClears = badSpec / 2;
    b.level2.fetchLatency = fe / 2;
    b.level2.fetchBandwidth = fe / 2;
    b.level2.memoryBound = b.level1.backendBound / 2;
    b.level2.coreBound = b.level1.backendBound / 2;
    return b;
}

TmaBreakdown eCore(double retiring, double badSpec, double fe, double slots)
{
    TmaBreakdown b; // tmaFromAtom: level 1 only
    b.valid = true;
    b.slots = slots;
    b.level1 = { retiring, badSpec, fe, 1.0 - retiring - badSpec - fe };
    return b;
}

/// Four intervals 1 s apart per series, interleaved as a live step reads them (P-core group, then E-core group).
/// P-core retiring 0.4, 0.5, 0.6, 0.7 (equal slots); E-core retiring 0.1, 0.2, 0.3, 0.4 with slots 100, 300, ...
PmuData twoSeries()
{
    PmuData d;
    d.kind = PmuSourceKind::Live;
    d.name = "hybrid test";
    d.tmaSeries = { "P-cores (cpu_core)", "E-cores (cpu_atom)" };
    for (int i = 0; i < 4; ++i) {
        const auto t = kT0 + static_cast<std::uint64_t>(i) * 1'000'000'000;
        d.tma.push_back({ t, pCore(0.4 + 0.1 * i, 0.1, 0.2, 1000), 0 });
        d.tma.push_back({ t + 1000, eCore(0.1 + 0.1 * i, 0.05, 0.3, 100.0 + 200.0 * i), 1 });
    }
    return d;
}

bool near(double a, double b)
{
    return std::abs(a - b) < 1e-9;
}

/// A kernel stand-in for counting groups: every open gets an eventfd, and a read() of a group leader returns the
/// group in its read_format with every counter at 1000 * (number of reads so far), so each interval's delta is
/// 1000 for every event of the group.
class FakeCountingPerf final : public rdt::pmu::PerfSyscalls {
public:
    explicit FakeCountingPerf(PerfEnvironment env)
        : m_env(std::move(env))
    { }
    struct Open {
        EventAttr attr;
        int fd;
        int group;
    };
    std::vector<Open> opens;
    std::map<int, std::uint64_t> reads; ///< leader fd -> reads so far

    rdt::Result<rdt::UniqueFd> open(const EventAttr& attr, pid_t, int, int groupFd, unsigned long) override
    {
        rdt::UniqueFd fd(::eventfd(0, EFD_CLOEXEC));
        opens.push_back({ attr, fd.get(), groupFd });
        return fd;
    }
    rdt::Status ioctl(int fd, unsigned long request, unsigned long arg) override
    {
        if (request == PERF_EVENT_IOC_ID)
            *reinterpret_cast<std::uint64_t*>(arg) = 1000 + static_cast<std::uint64_t>(fd);
        return {};
    }
    rdt::Result<rdt::MappedRegion> mmap(int, std::size_t size) override
    {
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return rdt::errnoError(errno, "mmap");
        return rdt::MappedRegion(p, size);
    }
    rdt::Result<std::size_t> read(int fd, std::span<std::byte> out) override
    {
        const Open* leader = nullptr;
        std::uint64_t nr = 1;
        for (const auto& o : opens) {
            if (o.fd == fd) leader = &o;
            nr += o.group == fd ? 1u : 0u;
        }
        if (!leader) return rdt::makeError("read of an unknown fd");
        const std::uint64_t n = ++reads[fd];
        const std::uint64_t fmt = leader->attr.readFormat;
        std::vector<std::uint64_t> words;
        if (fmt & perf::ReadGroup) words.push_back(nr);
        if (fmt & perf::ReadTotalTimeEnabled) words.push_back(n * 1'000'000);
        if (fmt & perf::ReadTotalTimeRunning) words.push_back(n * 1'000'000);
        for (std::uint64_t i = 0; i < nr; ++i) {
            words.push_back(n * 1000);
            if (fmt & perf::ReadId) words.push_back(i);
            if (fmt & perf::ReadLost) words.push_back(0);
        }
        const std::size_t bytes = words.size() * 8;
        if (bytes > out.size()) return rdt::makeError("read buffer too small");
        std::memcpy(out.data(), words.data(), bytes);
        return bytes;
    }
    PerfEnvironment environment() override { return m_env; }

private:
    PerfEnvironment m_env;
};

} // namespace

class TestPmuTmaSeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dataCountsItsSeries()
    {
        PmuData one;
        QCOMPARE(one.tmaSeriesCount(), std::size_t { 1 });
        QVERIFY(one.tmaSeriesLabel(0).empty());
        const PmuData two = twoSeries();
        QCOMPARE(two.tmaSeriesCount(), std::size_t { 2 });
        QCOMPARE(two.tmaSeriesLabel(1), std::string("E-cores (cpu_atom)"));
        QVERIFY(two.tmaSeriesLabel(2).empty());
        // Both series' intervals count towards the time span.
        QCOMPARE(two.timeSpan().first, kT0);
        QCOMPARE(two.timeSpan().second, kT0 + 3'000'000'000 + 1000);
    }

    void sessionAggregatesEachSeriesSeparately()
    {
        PmuSession s;
        s.setData(twoSeries());
        s.waitForAggregation();
        const TmaBreakdown& p = s.rangeTma(0);
        const TmaBreakdown& e = s.rangeTma(1);
        QVERIFY(p.valid && e.valid);
        QVERIFY(p.level2.present);
        QVERIFY(!e.level2.present);
        // P: equal slots, mean of 0.4..0.7. E: slot-weighted (100*0.1 + 300*0.2 + 500*0.3 + 700*0.4) / 1600.
        QVERIFY2(near(p.level1.retiring, 0.55), qPrintable(QString::number(p.level1.retiring)));
        QVERIFY2(near(e.level1.retiring, 0.5 / 1.6), qPrintable(QString::number(e.level1.retiring)));
        QCOMPARE(p.slots, 4000.0);
        QCOMPARE(e.slots, 1600.0);
        QVERIFY(near(e.level1.frontendBound, 0.3));
        // No third series: an invalid breakdown, never another series' numbers.
        QVERIFY(!s.rangeTma(2).valid);
        QCOMPARE(&s.rangeTma(), &s.rangeTma(0));
    }

    void timeRangeFiltersBothSeries()
    {
        PmuSession s;
        s.setData(twoSeries());
        s.waitForAggregation();
        // Seconds since the first interval: P at 0, 1, 2, 3; E at 1 us after each. [0.5, 2.5] keeps i = 1, 2.
        s.setTimeRange(0.5, 2.5);
        s.waitForAggregation();
        QCOMPARE(s.rangeTma(0).slots, 2000.0);
        QVERIFY(near(s.rangeTma(0).level1.retiring, 0.55));
        QCOMPARE(s.rangeTma(1).slots, 800.0); // 300 + 500
        QVERIFY(near(s.rangeTma(1).level1.retiring, (300 * 0.2 + 500 * 0.3) / 800));
        // A range that ends between the last P-core interval (3 s) and the last E-core one (1 us later).
        s.setTimeRange(2.9, 3.0000005);
        s.waitForAggregation();
        QVERIFY(s.rangeTma(0).valid);
        QVERIFY(!s.rangeTma(1).valid);
        s.clearTimeRange();
        s.waitForAggregation();
        QCOMPARE(s.rangeTma(1).slots, 1600.0);
    }

    void oneSeriesDataIsUnchanged()
    {
        PmuData d;
        d.kind = PmuSourceKind::Simulated;
        d.name = "one series";
        d.tma.push_back({ kT0, pCore(0.5, 0.1, 0.2, 100), 0 });
        d.tma.push_back({ kT0 + 1'000'000'000, pCore(0.3, 0.1, 0.2, 300), 0 });
        PmuSession s;
        s.setData(std::move(d));
        s.waitForAggregation();
        QVERIFY(near(s.rangeTma().level1.retiring, (50.0 + 90.0) / 400));
        QVERIFY(!s.rangeTma(1).valid);
    }

    void eCoreTreeHasNoLevelTwoRows()
    {
        PmuSession s;
        s.setData(twoSeries());
        s.waitForAggregation();
        ::TmaModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setBreakdown(s.rangeTma(0));
        QCOMPARE(m.rowCount(), 4);
        for (int r = 0; r < 4; ++r)
            QCOMPARE(m.rowCount(m.index(r, 0)), 2);
        m.setBreakdown(s.rangeTma(1)); // E-cores: level 1 only, so the shape changes (reset)
        QCOMPARE(m.rowCount(), 4);
        for (int r = 0; r < 4; ++r)
            QCOMPARE(m.rowCount(m.index(r, 0)), 0);
        QVERIFY(!m.index(0, 0, m.index(3, 0)).isValid());
        QVERIFY(near(m.index(0, ::TmaModel::FractionColumn).data(::TmaModel::FractionRole).toDouble(), 0.5 / 1.6));
        m.setBreakdown(s.rangeTma(0));
        QCOMPARE(m.rowCount(m.index(3, 0)), 2);
    }

    /// A PMU-only capture service whose perf_event_open is a FakeCountingPerf on `env` (the last one made in *sys).
    static std::shared_ptr<rdt::engine::CaptureService> fakeService(const PerfEnvironment& env, FakeCountingPerf** sys)
    {
        rdt::engine::ServiceOptions so;
        so.openRdt = false;
        so.perfSyscalls = [env, sys] {
            auto fake = std::make_unique<FakeCountingPerf>(env);
            *sys = fake.get();
            return std::unique_ptr<rdt::pmu::PerfSyscalls>(std::move(fake));
        };
        auto svc = rdt::engine::CaptureService::open(so);
        if (!svc) return nullptr;
        return std::shared_ptr<rdt::engine::CaptureService>(std::move(*svc));
    }

    static PerfTarget self()
    {
        PerfTarget t;
        t.pids = { ::getpid() };
        return t;
    }

    void liveCaptureKeepsTheEcoreTmaRecipe_data()
    {
        QTest::addColumn<int>("model");
        QTest::newRow("Alder Lake (Gracemont)") << 0x9A;
        QTest::newRow("Meteor Lake (Crestmont)") << 0xAA;
    }

    void liveCaptureKeepsTheEcoreTmaRecipe()
    {
        // Through the engine, as the CLI's pmu tma: one counting part per core PMU, each its own series.
        QFETCH(int, model);
        const PerfEnvironment env = hybridEnv(model);
        FakeCountingPerf* sys = nullptr;
        auto svc = fakeService(env, &sys);
        QVERIFY(svc);
        auto run = PmuCaptureRun::start(svc, liveRequest(PmuRecipeKind::Tma, self()));
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        const auto& parts = (*run)->info().parts;
        QCOMPARE(parts.size(), std::size_t { 2 });
        bool atomOpened = false;
        for (const auto& o : sys->opens)
            atomOpened = atomOpened || o.attr.type == env.cpuAtomType;
        QVERIFY2(atomOpened, "the cpu_atom TMA group is opened");
        for (const auto& p : parts)
            QVERIFY(p.counting);
        QCOMPARE(parts[1].pmuName, std::string("cpu_atom"));
        QVERIFY(!parts[1].levelTwoTma); // E-cores: level 1 only
        const PmuData data = (*run)->makeData("test");
        QCOMPARE(data.tmaSeries,
            (std::vector<std::string> { std::string("P-cores (cpu_core)"), std::string("E-cores (cpu_atom)") }));
        for (const auto& n : data.notes)
            QVERIFY2(n.find("P-cores (cpu_core) only") == std::string::npos, n.c_str());
    }

    void liveAllRecipesSeriesOnlyForCounting()
    {
        FakeCountingPerf* sys = nullptr;
        auto svc = fakeService(hybridEnv(0x9A), &sys);
        QVERIFY(svc);
        auto run = PmuCaptureRun::start(svc, liveRequest(PmuRecipeKind::All, self()));
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        std::size_t counting = 0, atomCounting = 0;
        for (const auto& p : (*run)->info().parts) {
            if (!p.counting) continue;
            ++counting;
            if (p.pmuName == "cpu_atom") ++atomCounting;
        }
        QCOMPARE(counting, std::size_t { 2 });
        QCOMPARE(atomCounting, std::size_t { 1 });
        QVERIFY((*run)->info().parts.size() > counting); // the sampling recipes of both PMUs are there too
        QCOMPARE((*run)->makeData("test").tmaSeries.size(), std::size_t { 2 });
        QCOMPARE(static_cast<int>((*run)->makeData("test").branchMode), static_cast<int>(BranchGraph::Mode::CallStack));
    }

    void liveStepTagsEachPmusIntervals()
    {
        // Alder Lake: the P-core and the E-core TMA groups both open, and each step's reads land in their series.
        const PerfEnvironment env = hybridEnv(0x9A);
        FakeCountingPerf* sys = nullptr;
        auto svc = fakeService(env, &sys);
        QVERIFY(svc);
        PmuSession s;
        s.setEngine(svc);
        QString error;
        QVERIFY2(s.startLive(PmuRecipeKind::Tma, self(), 1000000, &error), qPrintable(error));
        QVERIFY(sys);
        QCOMPARE(s.data().tmaSeries.size(), std::size_t { 2 });
        QCOMPARE(s.data().tmaSeriesLabel(1), std::string("E-cores (cpu_atom)"));
        for (int i = 0; i < 3; ++i) {
            s.waitForAggregation();
            s.stepSimulation(); // one read per step: one interval per series
        }
        s.waitForAggregation();
        std::size_t core = 0, atom = 0;
        for (const auto& p : s.data().tma) {
            QVERIFY(p.breakdown.valid);
            if (p.series == 0) {
                ++core;
                QVERIFY(p.breakdown.level2.present);
            } else {
                QCOMPARE(p.series, 1u);
                ++atom;
                QVERIFY(!p.breakdown.level2.present);
                // Gracemont (adl-metrics.json): slots = 5 * CPU_CLK_UNHALTED.CORE, bad speculation the remainder;
                // with every delta equal that is 1/5 each for retiring, frontend and backend and 2/5 bad speculation.
                QVERIFY(near(p.breakdown.level1.retiring, 0.2));
                QVERIFY(near(p.breakdown.level1.badSpeculation, 0.4));
            }
        }
        QCOMPARE(core, std::size_t { 3 });
        QCOMPARE(atom, std::size_t { 3 });
        QVERIFY(s.rangeTma(0).valid);
        QVERIFY(s.rangeTma(1).valid);
        QVERIFY(near(s.rangeTma(1).level1.badSpeculation, 0.4));
    }

    void liveCpuClockHasNoSeries()
    {
        FakeCountingPerf* sys = nullptr;
        auto svc = fakeService(hybridEnv(0x9A), &sys);
        QVERIFY(svc);
        auto run = PmuCaptureRun::start(svc, liveRequest(PmuRecipeKind::CpuClock, self()));
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        QCOMPARE((*run)->info().parts.size(), std::size_t { 1 });
        QVERIFY(!(*run)->info().parts[0].counting);
        QVERIFY((*run)->makeData("test").tmaSeries.empty());
    }
};

QTEST_MAIN(TestPmuTmaSeries)
#include "test_pmu_tma_series.moc"

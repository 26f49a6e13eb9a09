// SPDX-License-Identifier: GPL-3.0-or-later
// A task sampled on several CPUs has one ring per CPU. The MMAP2 of its exec can sit in one CPU's ring and its first
// samples in another's; perf sorts by time across rings (tools/perf/util/ordered-events.c). PerfSession hands the
// side-band of every ring over before the samples of a drain, and the capture service names an address it could not
// name yet again once it can, so a busy loop's few addresses never stay "[unknown]" (the GUI's live capture behind
// sshd showed every sample unknown on a loaded machine).
#include "FakeRingPerf.h"
#include "engine/PmuCapture.h"
#include "pmu/PerfSession.h"
#include "pmu/Recipes.h"
#include "pmu/Symbolizer.h"
#include "simpmu/RecordWriter.h"

#include <gtest/gtest.h>

#include <unistd.h>

using namespace rdt::pmu;
using rdt::pmu::test::FakeRingPerf;

namespace {

constexpr std::uint32_t kPid = 4242421; // not a live process: only the records say what it maps
constexpr std::uint64_t kBase = 0x400000, kIp = 0x401010;

PerfEnvironment plainEnv()
{
    PerfEnvironment env;
    env.vendor = "AuthenticAMD";
    env.isRoot = true;
    return env;
}

/// The leader of the group opened on `cpu` (its ring takes the group's records).
const FakeRingPerf::Open& leaderOn(const FakeRingPerf& sys, int cpu)
{
    for (const auto& o : sys.opens)
        if (o.cpu == cpu && o.group == -1) return o;
    throw std::runtime_error("no group on cpu " + std::to_string(cpu));
}

std::vector<std::byte> mmapOfTarget(const EventAttr& attr, std::uint64_t time)
{
    MmapRecord m;
    m.isMmap2 = true;
    m.pid = m.tid = kPid;
    m.addr = kBase;
    m.len = 0x10000;
    m.prot = 5; // PROT_READ | PROT_EXEC
    m.filename = PMU_LIVE_TARGET;
    SampleIdTrailer id;
    id.present = true;
    id.pid = id.tid = kPid;
    id.time = time;
    std::vector<std::byte> out;
    RecordWriter::mmap2(attr, m, id, out);
    return out;
}

std::vector<std::byte> sampleAt(const FakeRingPerf::Open& on, std::uint64_t time)
{
    Sample s;
    s.identifier = s.id = on.id;
    s.ip = kIp;
    s.pid = s.tid = kPid;
    s.time = time;
    s.cpu = static_cast<std::uint32_t>(on.cpu);
    s.period = 250000;
    std::vector<std::byte> out;
    EXPECT_TRUE(RecordWriter::sample(on.attr, s, out));
    return out;
}

} // namespace

TEST(RingOrder, SideBandOfEveryRingComesBeforeTheSamples)
{
    if (::sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs two online CPUs (one ring each)";
    FakeRingPerf sys(plainEnv());
    PerfTarget target;
    target.pids = { ::getpid() };
    auto session = PerfSession::open(sys, cpuClockRecipe({}), target, 8);
    ASSERT_TRUE(session) << session.error().toString();
    const auto& cpu0 = leaderOn(sys, 0);
    const auto& cpu1 = leaderOn(sys, 1);
    // Exec on CPU 1 at t=100, then the task ran on CPU 0: its samples are in ring 0, drained first.
    sys.writeRing(cpu0.fd, sampleAt(cpu0, 200));
    sys.writeRing(cpu1.fd, mmapOfTarget(cpu1.attr, 100));

    Symbolizer symbols;
    std::vector<RecordKind> order;
    std::string module;
    EXPECT_EQ((*session)->drain([&](const DecodedRecord& r) {
        order.push_back(r.kind);
        symbols.onRecord(r);
        if (r.kind == RecordKind::Sample) module = symbols.resolve(r.sample.pid, r.sample.ip).module;
    }),
        2u);
    EXPECT_EQ(order, (std::vector<RecordKind> { RecordKind::Mmap, RecordKind::Sample }));
    EXPECT_EQ(module, "pmu_live_target");
    EXPECT_EQ((*session)->decodeErrors(), 0u);
}

TEST(RingOrder, AnAddressFirstSentUnknownIsNamedAgainOnceItsMappingIsKnown)
{
    auto owned = std::make_unique<FakeRingPerf>(plainEnv());
    FakeRingPerf& sys = *owned;
    rdt::engine::PmuRequest request;
    request.kind = rdt::engine::PmuCaptureKind::CpuClock;
    request.pids = { static_cast<std::uint32_t>(::getpid()) };
    request.keepSamples = true;
    rdt::engine::PmuStarted started;
    auto capture = rdt::engine::PmuCapture::start(1, request, started, std::move(owned));
    ASSERT_TRUE(capture) << started.result.error().toString();
    const auto& ring = leaderOn(sys, sys.opens.front().cpu);

    // Batch 1: a sample whose mapping's record has not been read (it is in a later drain).
    sys.writeRing(ring.fd, sampleAt(ring, 200));
    auto first = capture->pump();
    ASSERT_EQ(first.names.size(), 1u);
    EXPECT_TRUE(first.names[0].symbol.module.empty()) << first.names[0].symbol.function;
    // Batch 2: the mapping, and the same address sampled again: its name comes again, now with the module.
    sys.writeRing(ring.fd, mmapOfTarget(ring.attr, 300));
    sys.writeRing(ring.fd, sampleAt(ring, 400));
    auto named = capture->pump();
    ASSERT_EQ(named.names.size(), 1u);
    EXPECT_EQ(named.names[0].addr, kIp);
    EXPECT_EQ(named.names[0].symbol.module, "pmu_live_target");
    // Batch 3: named now, so not sent again.
    sys.writeRing(ring.fd, sampleAt(ring, 500));
    EXPECT_TRUE(capture->pump().names.empty());
    capture->stop();
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Ring reader tables over MemoryRing (straddle, overrun, lost, corrupt) and one live test over a real perf mmap.

#include "DecodeBytes.h"
#include "pmu/RingReader.h"
#include "simpmu/RingWriter.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace rdt::pmu;
using rdt::pmu::test::Bytes;

namespace {

std::vector<std::byte> sampleRecord(std::uint64_t ip, std::size_t extraU64 = 0)
{
    Bytes b;
    b.u64(ip);
    for (std::size_t i = 0; i < extraU64; ++i)
        b.u64(ip + i + 1);
    return Bytes::record(perf::RecordSample, perf::MiscUser, b);
}

std::vector<std::vector<std::byte>> drainAll(RingReader& r)
{
    std::vector<std::vector<std::byte>> got;
    r.drain([&](std::span<const std::byte> rec) { got.emplace_back(rec.begin(), rec.end()); });
    return got;
}

RingReader readerFor(MemoryRing& ring)
{
    auto r = RingReader::create(ring.view());
    EXPECT_TRUE(r.ok());
    return std::move(r).value();
}

} // namespace

TEST(DecodeRing, RejectsBadViews)
{
    std::vector<std::uint64_t> mem(1024);
    auto* base = reinterpret_cast<std::byte*>(mem.data());
    EXPECT_FALSE(RingReader::create({ nullptr, base, 64 }).ok());
    EXPECT_FALSE(RingReader::create({ base, base + 4096, 3000 }).ok());
    EXPECT_FALSE(MemoryRing::create(100).ok());
    EXPECT_FALSE(RingReader::viewOfMapping(base, 100, 4096).ok());
}

TEST(DecodeRing, RecordsInOrderAndTailReleased)
{
    auto ring = MemoryRing::create(256);
    ASSERT_TRUE(ring.ok());
    auto reader = readerFor(*ring);
    for (std::uint64_t i = 0; i < 5; ++i)
        ASSERT_TRUE(ring->write(sampleRecord(0x1000 + i)));
    EXPECT_EQ(reader.pending(), 5u * 16);
    auto got = drainAll(reader);
    ASSERT_EQ(got.size(), 5u);
    for (std::uint64_t i = 0; i < 5; ++i)
        EXPECT_EQ(got[i], sampleRecord(0x1000 + i));
    EXPECT_EQ(reader.pending(), 0u);
    EXPECT_EQ(ring->freeBytes(), 256u);
    EXPECT_EQ(reader.stats().samples, 5u);
    EXPECT_EQ(reader.stats().bytes, 80u);
    EXPECT_EQ(reader.stats().straddled, 0u);
    EXPECT_TRUE(drainAll(reader).empty());
}

TEST(DecodeRing, StraddlingRecordsAreCopiedOutWhole)
{
    // A 128-byte ring, 40-byte records: the 4th record (offset 120) wraps 8 bytes in and 32 around.
    struct Row {
        std::size_t ringSize;
        std::size_t extra; ///< u64s after the ip
        std::size_t count;
    };
    for (const Row& row : { Row { 128, 3, 9 }, Row { 64, 1, 7 }, Row { 256, 20, 5 } }) {
        auto ring = MemoryRing::create(row.ringSize);
        ASSERT_TRUE(ring.ok());
        auto reader = readerFor(*ring);
        std::size_t straddles = 0;
        std::uint64_t head = 0;
        const std::size_t size = 16 + 8 * row.extra;
        for (std::size_t i = 0; i < row.count; ++i) {
            auto rec = sampleRecord(0x5000 + i * 0x100, row.extra);
            ASSERT_TRUE(ring->write(rec)) << i;
            if ((head % row.ringSize) + size > row.ringSize) ++straddles;
            head += size;
            auto got = drainAll(reader); // read each one so the writer never blocks
            ASSERT_EQ(got.size(), 1u);
            EXPECT_EQ(got[0], rec) << "ring " << row.ringSize << " record " << i;
        }
        EXPECT_EQ(reader.stats().straddled, straddles) << row.ringSize;
        EXPECT_GT(straddles, 0u);
    }
}

TEST(DecodeRing, FullRingDropsAndThenEmitsLost)
{
    auto ring = MemoryRing::create(64);
    ASSERT_TRUE(ring.ok());
    ring->setLostId(77);
    auto reader = readerFor(*ring);
    int written = 0;
    for (int i = 0; i < 10; ++i)
        written += ring->write(sampleRecord(static_cast<std::uint64_t>(i))) ? 1 : 0;
    EXPECT_EQ(written, 4); // 4 x 16 bytes fill 64
    EXPECT_EQ(ring->droppedTotal(), 6u);
    EXPECT_EQ(drainAll(reader).size(), 4u);
    ASSERT_TRUE(ring->write(sampleRecord(99)));
    auto got = drainAll(reader);
    ASSERT_EQ(got.size(), 2u);
    RecordDecoder d;
    EventAttr a;
    a.sampleType = perf::SampleIp;
    d.addEvent(a);
    DecodedRecord out;
    ASSERT_TRUE(d.decode(got[0], out).ok());
    ASSERT_EQ(out.kind, RecordKind::Lost);
    EXPECT_EQ(out.lost.id, 77u);
    EXPECT_EQ(out.lost.lost, 6u);
    ASSERT_TRUE(d.decode(got[1], out).ok());
    EXPECT_EQ(out.sample.ip, 99u);
    EXPECT_EQ(reader.stats().lostRecords, 1u);
    EXPECT_EQ(reader.stats().lostEvents, 6u);
}

TEST(DecodeRing, LostSamplesAndThrottleAreCounted)
{
    auto ring = MemoryRing::create(512);
    ASSERT_TRUE(ring.ok());
    auto reader = readerFor(*ring);
    ASSERT_TRUE(ring->write(Bytes::record(perf::RecordLostSamples, 0, Bytes().u64(12))));
    ASSERT_TRUE(ring->write(Bytes::record(perf::RecordLostSamples, 0, Bytes().u64(30))));
    ASSERT_TRUE(ring->write(Bytes::record(perf::RecordThrottle, 0, Bytes().u64(1).u64(2).u64(3))));
    ASSERT_TRUE(ring->write(Bytes::record(perf::RecordUnthrottle, 0, Bytes().u64(4).u64(2).u64(3))));
    EXPECT_EQ(drainAll(reader).size(), 4u);
    EXPECT_EQ(reader.stats().lostSamples, 42u);
    EXPECT_EQ(reader.stats().throttles, 1u);
    EXPECT_EQ(reader.stats().unthrottles, 1u);
}

TEST(DecodeRing, OverrunIsDetectedAndResynchronised)
{
    auto ring = MemoryRing::create(64);
    ASSERT_TRUE(ring.ok());
    auto reader = readerFor(*ring);
    for (int i = 0; i < 6; ++i) // 96 bytes into 64: the writer lapped the reader
        ring->writeOverwrite(sampleRecord(static_cast<std::uint64_t>(i)));
    EXPECT_TRUE(drainAll(reader).empty());
    EXPECT_EQ(reader.stats().overruns, 1u);
    EXPECT_EQ(reader.stats().overrunBytes, 96u);
    EXPECT_EQ(reader.pending(), 0u);
    ASSERT_TRUE(ring->write(sampleRecord(7)));
    auto got = drainAll(reader);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0], sampleRecord(7));
}

TEST(DecodeRing, CorruptHeaderResynchronisesInsteadOfLooping)
{
    auto ring = MemoryRing::create(128);
    ASSERT_TRUE(ring.ok());
    auto reader = readerFor(*ring);
    ASSERT_TRUE(ring->write(sampleRecord(1)));
    // size 0 would make a naive reader spin forever; size 200 is larger than what was written.
    ASSERT_TRUE(ring->write(Bytes().u32(9).u16(0).u16(0).u64(0).bytes()));
    ASSERT_TRUE(ring->write(sampleRecord(2)));
    auto got = drainAll(reader);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(reader.stats().corrupt, 1u);
    EXPECT_EQ(reader.stats().overrunBytes, 32u);
    EXPECT_EQ(reader.pending(), 0u);
    ASSERT_TRUE(ring->write(Bytes().u32(9).u16(0).u16(200).u64(0).bytes()));
    EXPECT_TRUE(drainAll(reader).empty());
    EXPECT_EQ(reader.stats().corrupt, 2u);
}

TEST(DecodeRing, MaxBytesBoundsOneDrain)
{
    auto ring = MemoryRing::create(256);
    ASSERT_TRUE(ring.ok());
    auto reader = readerFor(*ring);
    for (int i = 0; i < 8; ++i)
        ASSERT_TRUE(ring->write(sampleRecord(static_cast<std::uint64_t>(i))));
    std::size_t n = reader.drain([](std::span<const std::byte>) {}, 40);
    EXPECT_EQ(n, 3u); // stops once 40 bytes are consumed: 16+16+16
    EXPECT_EQ(reader.pending(), 5u * 16);
}

TEST(DecodeRing, DrainDecodedAndViewOfMapping)
{
    auto ring = MemoryRing::create(1024);
    ASSERT_TRUE(ring.ok());
    auto view = RingReader::viewOfMapping(ring->base(), ring->mapSize(), ring->pageSize());
    ASSERT_TRUE(view.ok()) << view.error().toString();
    EXPECT_EQ(view->dataSize, 1024u);
    EXPECT_EQ(view->data, ring->view().data);
    auto reader = RingReader::create(*view);
    ASSERT_TRUE(reader.ok());
    RecordDecoder d;
    EventAttr a;
    a.sampleType = perf::SampleIp | perf::SampleTid;
    d.addEvent(a);
    ASSERT_TRUE(ring->write(Bytes::record(perf::RecordSample, 0, Bytes().u64(0xabc).u32(5).u32(6))));
    ASSERT_TRUE(ring->write(Bytes::record(perf::RecordSample, 0, Bytes().u64(1)))); // too short for TID
    DecodedRecord scratch;
    std::vector<std::uint64_t> ips;
    reader->drainDecoded(d, scratch, [&](const DecodedRecord& r) { ips.push_back(r.sample.ip); });
    ASSERT_EQ(ips.size(), 1u);
    EXPECT_EQ(ips[0], 0xabcu);
    EXPECT_EQ(reader->decodeErrors(), 1u);
    EXPECT_NE(reader->lastDecodeError().message.find("TID"), std::string::npos);
}

TEST(DecodeRing, LiveSoftwareEventThroughARealMapping)
{
    // A real perf ring: task-clock sampling on this thread, read with the same reader.
    perf_event_attr attr {};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    attr.sample_period = 100000; // every 100 us of CPU time
    attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.sample_id_all = 1;
    const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (fd < 0) {
        const int err = errno;
        GTEST_SKIP() << "perf_event_open(task-clock) failed: " << std::strerror(err)
                     << " (needs /proc/sys/kernel/perf_event_paranoid <= 2 or CAP_PERFMON)";
    }
    const int ifd = static_cast<int>(fd);
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t mapSize = page * (1 + 8);
    void* base = mmap(nullptr, mapSize, PROT_READ | PROT_WRITE, MAP_SHARED, ifd, 0);
    ASSERT_NE(base, MAP_FAILED) << std::strerror(errno);
    ioctl(ifd, PERF_EVENT_IOC_ENABLE, 0);
    volatile std::uint64_t sink = 0;
    for (std::uint64_t i = 0; i < 30'000'000; ++i)
        sink = sink + i * i;
    ioctl(ifd, PERF_EVENT_IOC_DISABLE, 0);

    auto view = RingReader::viewOfMapping(base, mapSize, page);
    ASSERT_TRUE(view.ok()) << view.error().toString();
    auto reader = RingReader::create(*view);
    ASSERT_TRUE(reader.ok());
    RecordDecoder d;
    auto ours = parseEventAttr(std::span(reinterpret_cast<const std::byte*>(&attr), sizeof attr));
    ASSERT_TRUE(ours.ok());
    d.addEvent(*ours);
    DecodedRecord scratch;
    std::size_t samples = 0, mine = 0;
    reader->drainDecoded(d, scratch, [&](const DecodedRecord& r) {
        if (r.kind != RecordKind::Sample) return;
        ++samples;
        if (r.sample.pid == static_cast<std::uint32_t>(getpid()) && r.sample.period == 100000) ++mine;
    });
    munmap(base, mapSize);
    close(ifd);
    EXPECT_EQ(reader->decodeErrors(), 0u);
    EXPECT_GT(samples, 0u);
    EXPECT_EQ(mine, samples);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Decoder tables for non-sample records (with and without sample_id trailers), attrs of every size, event routing
// by id, and perf_mem_data_src decoding against the values perf prints for the real fixtures.

#include "DecodeBytes.h"
#include "pmu/RecordDecoder.h"

#include <gtest/gtest.h>

using namespace rdt::pmu;
using rdt::pmu::test::Bytes;

namespace {

EventAttr trailerAttr()
{
    // sample_id trailer = {pid,tid} {time} {id} {stream_id} {cpu,res} {identifier}
    EventAttr a;
    a.size = perf::AttrSizeVer8;
    a.sampleType = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleId | perf::SampleStreamId
        | perf::SampleCpu | perf::SampleIdentifier;
    a.setFlag(EventAttr::FlagSampleIdAll, true);
    return a;
}

Bytes trailer()
{
    return Bytes().u32(1).u32(2).u64(3000).u64(4).u64(5).u32(6).u32(0).u64(4);
}

void expectTrailer(const SampleIdTrailer& t)
{
    EXPECT_TRUE(t.present);
    EXPECT_EQ(t.pid, 1u);
    EXPECT_EQ(t.tid, 2u);
    EXPECT_EQ(t.time, 3000u);
    EXPECT_EQ(t.id, 4u);
    EXPECT_EQ(t.streamId, 5u);
    EXPECT_EQ(t.cpu, 6u);
    EXPECT_EQ(t.identifier, 4u);
}

} // namespace

TEST(DecodeRecords, MmapWithTrailer)
{
    RecordDecoder d;
    d.addEvent(trailerAttr());
    Bytes b;
    b.u32(100).u32(101).u64(0x400000).u64(0x1000).u64(0).str("/usr/bin/true").raw(trailer().bytes());
    DecodedRecord out;
    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordMmap, perf::MiscUser, b), out).ok());
    ASSERT_EQ(out.kind, RecordKind::Mmap);
    EXPECT_FALSE(out.mmap.isMmap2);
    EXPECT_EQ(out.mmap.pid, 100u);
    EXPECT_EQ(out.mmap.addr, 0x400000u);
    EXPECT_EQ(out.mmap.len, 0x1000u);
    EXPECT_EQ(out.mmap.filename, "/usr/bin/true");
    expectTrailer(out.sampleId);
}

TEST(DecodeRecords, Mmap2InodeAndBuildIdForms)
{
    RecordDecoder d;
    d.addEvent(trailerAttr());
    Bytes b;
    b.u32(7).u32(7).u64(0x7f0000000000).u64(0x2000).u64(0x1000);
    b.u32(8).u32(1).u64(123456).u64(9); // maj, min, ino, ino_generation
    b.u32(5).u32(2).str("/lib/libc.so.6").raw(trailer().bytes()); // prot R|X, flags MAP_PRIVATE
    DecodedRecord out;
    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordMmap2, perf::MiscUser, b), out).ok());
    ASSERT_EQ(out.kind, RecordKind::Mmap);
    EXPECT_TRUE(out.mmap.isMmap2);
    EXPECT_FALSE(out.mmap.hasBuildId);
    EXPECT_EQ(out.mmap.maj, 8u);
    EXPECT_EQ(out.mmap.ino, 123456u);
    EXPECT_EQ(out.mmap.inoGeneration, 9u);
    EXPECT_EQ(out.mmap.prot, 5u);
    EXPECT_TRUE(out.mmap.executable());
    EXPECT_EQ(out.mmap.pgoff, 0x1000u);
    EXPECT_EQ(out.mmap.filename, "/lib/libc.so.6");
    expectTrailer(out.sampleId);

    Bytes c;
    c.u32(7).u32(7).u64(0x400000).u64(0x1000).u64(0);
    c.u8(8).u8(0).u16(0); // build_id_size, reserved
    for (std::uint8_t i = 0; i < 20; ++i)
        c.u8(i < 8 ? static_cast<std::uint8_t>(0xa0 + i) : 0);
    c.u32(4).u32(2).str("/bin/prog").raw(trailer().bytes());
    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordMmap2, perf::MiscUser | perf::MiscMmapBuildId, c), out).ok());
    EXPECT_TRUE(out.mmap.hasBuildId);
    EXPECT_EQ(out.mmap.buildIdSize, 8u);
    EXPECT_EQ(out.mmap.buildId[0], 0xa0u);
    EXPECT_EQ(out.mmap.buildId[7], 0xa7u);
    EXPECT_EQ(out.mmap.ino, 0u);
    EXPECT_EQ(out.mmap.filename, "/bin/prog");
}

TEST(DecodeRecords, CommForkExitLostThrottle)
{
    RecordDecoder d;
    d.addEvent(trailerAttr());
    DecodedRecord out;

    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordComm, perf::MiscCommExec,
                             Bytes().u32(10).u32(11).str("worker").raw(trailer().bytes())),
                     out)
                    .ok());
    ASSERT_EQ(out.kind, RecordKind::Comm);
    EXPECT_EQ(out.comm.comm, "worker");
    EXPECT_TRUE(out.comm.exec);
    expectTrailer(out.sampleId);

    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordFork, 0,
                             Bytes().u32(20).u32(10).u32(21).u32(11).u64(999).raw(trailer().bytes())),
                     out)
                    .ok());
    ASSERT_EQ(out.kind, RecordKind::Fork);
    EXPECT_EQ(out.task.pid, 20u);
    EXPECT_EQ(out.task.ppid, 10u);
    EXPECT_EQ(out.task.tid, 21u);
    EXPECT_EQ(out.task.ptid, 11u);
    EXPECT_EQ(out.task.time, 999u);

    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordExit, 0,
                             Bytes().u32(20).u32(10).u32(21).u32(11).u64(1999).raw(trailer().bytes())),
                     out)
                    .ok());
    EXPECT_EQ(out.kind, RecordKind::Exit);
    EXPECT_EQ(out.task.time, 1999u);

    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordLost, 0, Bytes().u64(4).u64(17).raw(trailer().bytes())), out).ok());
    ASSERT_EQ(out.kind, RecordKind::Lost);
    EXPECT_EQ(out.lost.id, 4u);
    EXPECT_EQ(out.lost.lost, 17u);

    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordLostSamples, 0, Bytes().u64(33).raw(trailer().bytes())), out).ok());
    ASSERT_EQ(out.kind, RecordKind::LostSamples);
    EXPECT_EQ(out.lostSamples.lost, 33u);

    ASSERT_TRUE(
        d.decode(Bytes::record(perf::RecordUnthrottle, 0, Bytes().u64(5000).u64(4).u64(5).raw(trailer().bytes())), out)
            .ok());
    ASSERT_EQ(out.kind, RecordKind::Throttle);
    EXPECT_TRUE(out.throttle.unthrottle);
    EXPECT_EQ(out.throttle.time, 5000u);
    EXPECT_EQ(out.throttle.streamId, 5u);
}

TEST(DecodeRecords, WithoutSampleIdAllThereIsNoTrailer)
{
    EventAttr a;
    a.sampleType = perf::SampleIp | perf::SampleTid;
    RecordDecoder d;
    d.addEvent(a);
    DecodedRecord out;
    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordComm, 0, Bytes().u32(1).u32(1).str("abcdefghijklmno")), out).ok());
    EXPECT_EQ(out.comm.comm, "abcdefghijklmno");
    EXPECT_FALSE(out.sampleId.present);
}

TEST(DecodeRecords, ShortRecordsAreErrors)
{
    RecordDecoder d;
    d.addEvent(trailerAttr());
    DecodedRecord out;
    // A FORK body shorter than its trailer, then one whose fields do not fit before the trailer.
    EXPECT_FALSE(d.decode(Bytes::record(perf::RecordFork, 0, Bytes().u64(1)), out).ok());
    EXPECT_FALSE(d.decode(Bytes::record(perf::RecordFork, 0, Bytes().u64(1).raw(trailer().bytes())), out).ok());
    EXPECT_FALSE(d.decode(Bytes::record(perf::RecordMmap2, 0, Bytes().fill(40, 0).raw(trailer().bytes())), out).ok());
}

TEST(DecodeRecords, UnknownAndUserRecordsAreOther)
{
    RecordDecoder d;
    d.addEvent(trailerAttr());
    DecodedRecord out;
    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordFinishedRound, 0, Bytes()), out).ok());
    EXPECT_EQ(out.kind, RecordKind::Other);
    ASSERT_TRUE(d.decode(Bytes::record(200, 0, Bytes().u64(1)), out).ok());
    EXPECT_EQ(out.kind, RecordKind::Other);
    EXPECT_EQ(recordTypeName(perf::RecordMmap2), "MMAP2");
    EXPECT_EQ(recordTypeName(perf::RecordCompressed), "COMPRESSED");
    EXPECT_EQ(recordTypeName(200), "type 200");
}

TEST(DecodeRecords, EventsRoutedByIdentifierAndById)
{
    // Two events with different sample_types but IDENTIFIER first: a sample goes to the event owning its id.
    EventAttr a = trailerAttr();
    EventAttr b = trailerAttr();
    b.sampleType |= perf::SamplePeriod;
    RecordDecoder d;
    const std::uint64_t idsA[] = { 100, 101 }, idsB[] = { 200 };
    d.addEvent(a, idsA);
    d.addEvent(b, idsB);
    DecodedRecord out;
    Bytes s;
    s.u64(200).u64(0x401000).u32(1).u32(1).u64(5).u64(200).u64(0).u32(0).u32(0).u64(4444);
    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordSample, 0, s), out).ok());
    EXPECT_EQ(d.eventIndex(out.attr), 1u);
    EXPECT_EQ(out.sample.period, 4444u);
    // Non-sample: identifier is the trailer's last u64.
    Bytes l;
    l.u64(101).u64(3).u32(1).u32(2).u64(3000).u64(101).u64(5).u32(6).u32(0).u64(101);
    ASSERT_TRUE(d.decode(Bytes::record(perf::RecordLost, 0, l), out).ok());
    EXPECT_EQ(d.eventIndex(out.attr), 0u);

    // ID without IDENTIFIER: position after IP, TID, TIME (ADDR absent).
    EventAttr c;
    c.sampleType = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleId | perf::SampleCpu;
    c.setFlag(EventAttr::FlagSampleIdAll, true);
    EventAttr e = c;
    e.sampleType |= perf::SamplePeriod;
    RecordDecoder d2;
    const std::uint64_t idsC[] = { 7 }, idsE[] = { 8 };
    d2.addEvent(c, idsC);
    d2.addEvent(e, idsE);
    Bytes s2;
    s2.u64(0x401000).u32(1).u32(1).u64(5).u64(8).u32(3).u32(0).u64(99);
    ASSERT_TRUE(d2.decode(Bytes::record(perf::RecordSample, 0, s2), out).ok());
    EXPECT_EQ(d2.eventIndex(out.attr), 1u);
    EXPECT_EQ(out.sample.period, 99u);
    // ...and in a trailer {pid,tid}{time}{id}{cpu}: id sits 2 u64 from the end.
    Bytes l2;
    l2.u64(7).u64(1).u32(1).u32(1).u64(5).u64(8).u32(3).u32(0);
    ASSERT_TRUE(d2.decode(Bytes::record(perf::RecordLost, 0, l2), out).ok());
    EXPECT_EQ(d2.eventIndex(out.attr), 1u);
    EXPECT_EQ(out.sampleId.cpu, 3u);
}

TEST(DecodeRecords, AttrOfEverySize)
{
    EventAttr a;
    a.type = 4;
    a.config = 0x1cd;
    a.samplePeriod = 10009;
    a.sampleType = 0x10000ff;
    a.readFormat = perf::ReadGroup;
    a.setPreciseIp(2);
    a.setFlag(EventAttr::FlagSampleIdAll, true);
    a.config1 = 0x40;
    a.config2 = 0x55;
    a.branchSampleType = perf::BranchAny;
    a.sampleRegsUser = 0xff;
    a.sampleStackUser = 8192;
    a.sampleRegsIntr = 0x3;
    a.auxWatermark = 11;
    a.sampleMaxStack = 127;
    a.auxSampleSize = 12;
    a.sigData = 13;
    a.config3 = 14;
    for (std::uint32_t size : { 64u, 72u, 80u, 96u, 104u, 112u, 120u, 128u, 136u }) {
        auto bytes = serializeEventAttr(a, size);
        ASSERT_EQ(bytes.size(), size);
        auto p = parseEventAttr(bytes);
        ASSERT_TRUE(p.ok()) << size;
        EXPECT_EQ(p->size, size);
        EXPECT_EQ(p->config, 0x1cdu);
        EXPECT_EQ(p->preciseIp(), 2u);
        EXPECT_TRUE(p->sampleIdAll());
        EXPECT_EQ(p->config1, 0x40u);
        EXPECT_EQ(p->config2, size >= 72 ? 0x55u : 0u) << size;
        EXPECT_EQ(p->branchSampleType, size >= 80 ? std::uint64_t { perf::BranchAny } : 0u) << size;
        EXPECT_EQ(p->sampleStackUser, size >= 96 ? 8192u : 0u) << size;
        EXPECT_EQ(p->sampleRegsIntr, size >= 104 ? 3u : 0u) << size;
        EXPECT_EQ(p->sampleMaxStack, size >= 112 ? 127u : 0u) << size;
        EXPECT_EQ(p->auxSampleSize, size >= 120 ? 12u : 0u) << size;
        EXPECT_EQ(p->sigData, size >= 128 ? 13u : 0u) << size;
        EXPECT_EQ(p->config3, size >= 136 ? 14u : 0u) << size;
    }
    // A future, larger attr: read the known prefix, ignore the rest.
    auto big = serializeEventAttr(a, 136);
    big.resize(160, std::byte { 0x77 });
    const std::uint32_t bigSize = 160;
    std::memcpy(big.data() + 4, &bigSize, 4);
    auto p = parseEventAttr(big);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->size, 160u);
    EXPECT_EQ(p->config3, 14u);
    // Too small or larger than its slot: errors.
    EXPECT_FALSE(parseEventAttr(std::span<const std::byte>(big.data(), 40)).ok());
    EXPECT_FALSE(parseEventAttr(std::span<const std::byte>(big.data(), 100)).ok());
}

TEST(DecodeRecords, DataSourceMatchesPerfOnTheFixtureValues)
{
    // Values from perf.data.weight_struct and how `perf script -F data_src` renders them
    // (docs/PMU.md "PEBS load latency").
    auto d = DataSource::decode(0x10268100142ull);
    EXPECT_TRUE(d.isLoad());
    EXPECT_EQ(d.lvl, DataSource::LvlHit | DataSource::LvlL1);
    EXPECT_EQ(d.snoop, DataSource::SnoopNone);
    EXPECT_EQ(d.lock, 0u);
    EXPECT_EQ(d.dtlb, DataSource::TlbHit | DataSource::TlbL1 | DataSource::TlbL2);
    EXPECT_EQ(d.lvlNum, DataSource::LvlNumL1);
    EXPECT_EQ(d.blk, DataSource::BlkNa);
    EXPECT_EQ(d.level(), MemLevel::L1);
    EXPECT_EQ(d.levelName(), "L1");
    EXPECT_EQ(DataSource::decode(0x11868100242ull).level(), MemLevel::Lfb);
    auto miss = DataSource::decode(0x10650100842ull);
    EXPECT_EQ(miss.dtlb, DataSource::TlbMiss | DataSource::TlbL2);
    EXPECT_TRUE(miss.tlbMiss());
    EXPECT_TRUE(DataSource::decode(0x1026a100142ull).locked());
    // Round trip through encode, every field at its maximum.
    const auto raw = DataSource::encode(0x1f, 0x3fff, 0x1f, 0x3, 0x7f, 0xf, true, 0x3, 0x7, 0x7);
    EXPECT_EQ(raw, (1ull << 46) - 1);
    auto all = DataSource::decode(raw);
    EXPECT_EQ(all.hops, 7u);
    EXPECT_TRUE(all.remote);
    EXPECT_EQ(all.snoopX, 3u);
}

TEST(DecodeRecords, DataSourceLevelsLvlNumThenLegacyBits)
{
    using D = DataSource;
    struct Row {
        std::uint64_t raw;
        MemLevel level;
    };
    const Row rows[] = {
        { D::encode(D::OpLoad, D::LvlHit | D::LvlL2, 0, 0, 0, D::LvlNumL2), MemLevel::L2 },
        { D::encode(D::OpLoad, D::LvlHit | D::LvlL3, D::SnoopHitm, 0, 0, D::LvlNumL3), MemLevel::L3 },
        { D::encode(D::OpLoad, D::LvlMiss, 0, 0, 0, D::LvlNumRam), MemLevel::LocalDram },
        { D::encode(D::OpLoad, D::LvlMiss, 0, 0, 0, D::LvlNumRam, true, 0, 0, 3), MemLevel::RemoteDram },
        { D::encode(D::OpLoad, 0, D::SnoopHitm, 0, 0, D::LvlNumAnyCache, true), MemLevel::RemoteCache },
        { D::encode(D::OpLoad, 0, 0, 0, 0, D::LvlNumPmem), MemLevel::Pmem },
        { D::encode(D::OpLoad, 0, 0, 0, 0, D::LvlNumIo), MemLevel::Io },
        { D::encode(D::OpLoad, 0, 0, 0, 0, D::LvlNumUnc), MemLevel::Uncached },
        // Older kernels: lvl_num 0, only the mem_lvl bits.
        { D::encode(D::OpLoad, D::LvlHit | D::LvlLocRam, 0, 0, 0, 0), MemLevel::LocalDram },
        { D::encode(D::OpLoad, D::LvlHit | D::LvlRemRam1, 0, 0, 0, 0), MemLevel::RemoteDram },
        { D::encode(D::OpLoad, D::LvlHit | D::LvlRemCce2, 0, 0, 0, 0), MemLevel::RemoteCache },
        { D::encode(D::OpLoad, D::LvlHit | D::LvlL3, 0, 0, 0, D::LvlNumNa), MemLevel::L3 },
        { D::encode(D::OpNa, D::LvlNa, 0, 0, 0, D::LvlNumNa), MemLevel::Unknown },
    };
    for (const auto& r : rows)
        EXPECT_EQ(D::decode(r.raw).level(), r.level) << std::hex << r.raw;
    EXPECT_TRUE(D::decode(rows[1].raw).hitm());
    EXPECT_EQ(memLevelName(MemLevel::RemoteDram), "remote DRAM");
    EXPECT_NE(D::decode(0x10268100142ull).describe().find("LOAD"), std::string::npos);
}

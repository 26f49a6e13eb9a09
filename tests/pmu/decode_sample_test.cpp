// SPDX-License-Identifier: GPL-3.0-or-later
// Decoder tables: one byte-exact PERF_RECORD_SAMPLE per sample_type field, then combinations, truncations and
// attrs of every size.

#include "DecodeBytes.h"
#include "pmu/RecordDecoder.h"

#include <gtest/gtest.h>

using namespace rdt::pmu;
using rdt::pmu::test::Bytes;

namespace {

EventAttr attrWith(std::uint64_t sampleType)
{
    EventAttr a;
    a.type = 4;
    a.size = perf::AttrSizeVer8;
    a.sampleType = sampleType;
    return a;
}

// Keeps the record bytes alive with the result: Sample's spans (raw, stackUser, aux) point into them.
struct Decoded {
    std::vector<std::byte> bytes;
    DecodedRecord out;
    const Sample& sample() const { return out.sample; }
};

Decoded decodeOk(const EventAttr& attr, const Bytes& body, std::uint16_t misc = 0)
{
    RecordDecoder d;
    d.addEvent(attr);
    Decoded r { Bytes::record(perf::RecordSample, misc, body), {} };
    auto st = d.decode(r.bytes, r.out);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().toString());
    EXPECT_EQ(r.out.kind, RecordKind::Sample);
    return r;
}

} // namespace

TEST(DecodeSample, ScalarFieldsEach)
{
    struct Row {
        std::uint64_t bit;
        std::uint64_t value;
        std::uint64_t Sample::*field;
    };
    const Row rows[] = {
        { perf::SampleIdentifier, 0x1111, &Sample::identifier },
        { perf::SampleIp, 0xffffffff81000010ull, &Sample::ip },
        { perf::SampleTime, 123456789012345ull, &Sample::time },
        { perf::SampleAddr, 0x7ffd12345678ull, &Sample::addr },
        { perf::SampleId, 42, &Sample::id },
        { perf::SampleStreamId, 43, &Sample::streamId },
        { perf::SamplePeriod, 100003, &Sample::period },
        { perf::SampleDataSrc, 0x10268100142ull, &Sample::dataSrc },
        { perf::SampleTransaction, 0x5, &Sample::transaction },
        { perf::SamplePhysAddr, 0x1234000ull, &Sample::physAddr },
        { perf::SampleCgroup, 77, &Sample::cgroup },
        { perf::SampleDataPageSize, 4096, &Sample::dataPageSize },
        { perf::SampleCodePageSize, 2097152, &Sample::codePageSize },
    };
    for (const auto& r : rows) {
        auto out = decodeOk(attrWith(r.bit), Bytes().u64(r.value));
        EXPECT_EQ(out.sample().*(r.field), r.value) << "sample_type bit " << r.bit;
        EXPECT_TRUE(out.sample().has(r.bit));
    }
}

TEST(DecodeSample, TidAndCpuAreTwoU32)
{
    auto out = decodeOk(attrWith(perf::SampleTid | perf::SampleCpu), Bytes().u32(100).u32(101).u32(7).u32(0xabc)).out;
    EXPECT_EQ(out.sample.pid, 100u);
    EXPECT_EQ(out.sample.tid, 101u);
    EXPECT_EQ(out.sample.cpu, 7u);
    EXPECT_EQ(out.sample.cpuRes, 0xabcu);
}

TEST(DecodeSample, FieldOrderFollowsSampleTypeNotBitOrder)
{
    // IDENTIFIER (bit 16) comes first; ID (bit 6) comes after ADDR (bit 3) and before STREAM_ID; PERIOD after CPU.
    const std::uint64_t t = perf::SampleIdentifier | perf::SampleIp | perf::SampleTid | perf::SampleTime
        | perf::SampleAddr | perf::SampleId | perf::SampleStreamId | perf::SampleCpu | perf::SamplePeriod;
    Bytes b;
    b.u64(9).u64(0x401000).u32(5).u32(6).u64(1000).u64(0xdead).u64(9).u64(10).u32(3).u32(0).u64(4000);
    auto s = decodeOk(attrWith(t), b).sample();
    EXPECT_EQ(s.identifier, 9u);
    EXPECT_EQ(s.ip, 0x401000u);
    EXPECT_EQ(s.pid, 5u);
    EXPECT_EQ(s.tid, 6u);
    EXPECT_EQ(s.time, 1000u);
    EXPECT_EQ(s.addr, 0xdeadu);
    EXPECT_EQ(s.id, 9u);
    EXPECT_EQ(s.streamId, 10u);
    EXPECT_EQ(s.cpu, 3u);
    EXPECT_EQ(s.period, 4000u);
}

TEST(DecodeSample, ReadSingleAllFormats)
{
    auto a = attrWith(perf::SampleRead);
    a.readFormat = perf::ReadTotalTimeEnabled | perf::ReadTotalTimeRunning | perf::ReadId | perf::ReadLost;
    // {value, time_enabled, time_running, id, lost}
    auto s = decodeOk(a, Bytes().u64(500).u64(2000).u64(1000).u64(77).u64(3)).sample();
    ASSERT_EQ(s.read.values.size(), 1u);
    EXPECT_EQ(s.read.values[0].value, 500u);
    EXPECT_EQ(s.read.timeEnabled, 2000u);
    EXPECT_EQ(s.read.timeRunning, 1000u);
    EXPECT_EQ(s.read.values[0].id, 77u);
    EXPECT_EQ(s.read.values[0].lost, 3u);

    a.readFormat = 0;
    s = decodeOk(a, Bytes().u64(501)).sample();
    ASSERT_EQ(s.read.values.size(), 1u);
    EXPECT_EQ(s.read.values[0].value, 501u);
    EXPECT_EQ(s.read.timeEnabled, 0u);
}

TEST(DecodeSample, ReadGroupWithIdsAndLost)
{
    auto a = attrWith(perf::SampleRead | perf::SampleIp);
    a.readFormat = perf::ReadGroup | perf::ReadTotalTimeEnabled | perf::ReadId | perf::ReadLost;
    // ip, {nr=3, time_enabled, {value,id,lost} x3}
    Bytes b;
    b.u64(0x400).u64(3).u64(999).u64(10).u64(1).u64(0).u64(20).u64(2).u64(5).u64(30).u64(3).u64(0);
    auto s = decodeOk(a, b).sample();
    ASSERT_EQ(s.read.values.size(), 3u);
    EXPECT_EQ(s.read.timeEnabled, 999u);
    EXPECT_EQ(s.read.timeRunning, 0u);
    EXPECT_EQ(s.read.values[1].value, 20u);
    EXPECT_EQ(s.read.values[1].id, 2u);
    EXPECT_EQ(s.read.values[1].lost, 5u);
    EXPECT_EQ(s.read.values[2].id, 3u);

    a.readFormat = perf::ReadGroup | perf::ReadTotalTimeEnabled | perf::ReadTotalTimeRunning;
    s = decodeOk(a, Bytes().u64(0x400).u64(2).u64(8).u64(4).u64(100).u64(200)).sample();
    ASSERT_EQ(s.read.values.size(), 2u);
    EXPECT_EQ(s.read.timeRunning, 4u);
    EXPECT_EQ(s.read.values[1].value, 200u);
}

TEST(DecodeSample, CallchainKeepsContextMarkers)
{
    Bytes b;
    b.u64(5).u64(perf::ContextKernel).u64(0xffffffff81001234ull).u64(perf::ContextUser).u64(0x401000).u64(0x402000);
    auto s = decodeOk(attrWith(perf::SampleCallchain), b).sample();
    ASSERT_EQ(s.callchain.size(), 5u);
    EXPECT_TRUE(perf::isContextMarker(s.callchain[0]));
    EXPECT_EQ(s.callchain[0], 0xffffffffffffff80ull);
    EXPECT_FALSE(perf::isContextMarker(s.callchain[1]));
    EXPECT_EQ(s.callchain[2], 0xfffffffffffffe00ull);
    EXPECT_EQ(s.callchain[4], 0x402000u);
}

TEST(DecodeSample, RawIsSizedBySize)
{
    // u32 size = 12, 12 bytes, then the next field follows directly (the kernel pads size so the total is u64-aligned).
    Bytes b;
    b.u32(12).fill(12, 0xab).u64(77);
    const auto d = decodeOk(attrWith(perf::SampleRaw | perf::SampleTransaction), b); // keeps the bytes alive
    const auto& s = d.sample();
    ASSERT_EQ(s.raw.size(), 12u);
    EXPECT_EQ(std::to_integer<int>(s.raw[11]), 0xab);
    EXPECT_EQ(s.transaction, 77u);
}

TEST(DecodeSample, BranchStackBitfields)
{
    // flags word: mispred bit0, predicted bit1, in_tx bit2, abort bit3, cycles 4..19, type 20..23, spec 24..25,
    // new_type 26..29, priv 30..32 -- written here as literal numbers, not through makeFlags.
    const std::uint64_t f0 = 0x1ull | (0x1234ull << 4) | (0x6ull << 20) | (0x2ull << 24) | (0x1ull << 30);
    const std::uint64_t f1 = 0x2ull | 0x4ull | 0x8ull | (0xffffull << 4) | (0xfull << 20) | (0x3ull << 24)
        | (0x9ull << 26) | (0x3ull << 30);
    Bytes b;
    b.u64(2).u64(0x401000).u64(0x402000).u64(f0).u64(0x403000).u64(0x404000).u64(f1).u64(88);
    auto s = decodeOk(attrWith(perf::SampleBranchStack | perf::SampleTransaction), b).sample();
    ASSERT_EQ(s.branches.size(), 2u);
    EXPECT_FALSE(s.hasHwIdx);
    const auto& e0 = s.branches[0];
    EXPECT_EQ(e0.from, 0x401000u);
    EXPECT_EQ(e0.to, 0x402000u);
    EXPECT_TRUE(e0.mispred());
    EXPECT_FALSE(e0.predicted());
    EXPECT_FALSE(e0.inTx());
    EXPECT_EQ(e0.cycles(), 0x1234u);
    EXPECT_EQ(e0.type(), perf::BrRet);
    EXPECT_EQ(e0.spec(), 2u);
    EXPECT_EQ(e0.newType(), 0u);
    EXPECT_EQ(e0.priv(), 1u);
    const auto& e1 = s.branches[1];
    EXPECT_FALSE(e1.mispred());
    EXPECT_TRUE(e1.predicted());
    EXPECT_TRUE(e1.inTx());
    EXPECT_TRUE(e1.abort());
    EXPECT_EQ(e1.cycles(), 0xffffu);
    EXPECT_EQ(e1.type(), perf::BrExtendAbi);
    EXPECT_EQ(e1.spec(), 3u);
    EXPECT_EQ(e1.newType(), 9u);
    EXPECT_EQ(e1.priv(), 3u);
    EXPECT_EQ(s.transaction, 88u);
    EXPECT_EQ(BranchEntry::makeFlags(true, false, 0x1234, perf::BrRet, false, false, 2, 0, 1), f0);
}

TEST(DecodeSample, BranchStackHwIdxAndCounters)
{
    auto a = attrWith(perf::SampleBranchStack | perf::SampleWeight);
    a.branchSampleType = perf::BranchAny | perf::BranchHwIndex | perf::BranchCounters;
    Bytes b;
    b.u64(2).u64(0x1f); // nr, hw_idx
    b.u64(1).u64(2).u64(0).u64(3).u64(4).u64(0); // entries
    b.u64(0x11).u64(0x22); // counters[nr]
    b.u64(55); // WEIGHT follows
    auto s = decodeOk(a, b).sample();
    EXPECT_TRUE(s.hasHwIdx);
    EXPECT_EQ(s.hwIdx, 0x1fu);
    ASSERT_EQ(s.branches.size(), 2u);
    EXPECT_EQ(s.branches[1].from, 3u);
    ASSERT_EQ(s.branchCounters.size(), 2u);
    EXPECT_EQ(s.branchCounters[1], 0x22u);
    EXPECT_EQ(s.weight.full, 55u);
}

TEST(DecodeSample, EmptyBranchStack)
{
    auto s = decodeOk(attrWith(perf::SampleBranchStack | perf::SampleTransaction), Bytes().u64(0).u64(9)).sample();
    EXPECT_TRUE(s.branches.empty());
    EXPECT_EQ(s.transaction, 9u);
}

TEST(DecodeSample, RegsUserAbiNoneHasNoRegs)
{
    auto a = attrWith(perf::SampleRegsUser | perf::SampleTransaction);
    a.sampleRegsUser = 0xff0fff; // 20 registers when abi != NONE
    auto s = decodeOk(a, Bytes().u64(0).u64(5)).sample();
    EXPECT_EQ(s.regsUserAbi, 0u);
    EXPECT_TRUE(s.regsUser.empty());
    EXPECT_EQ(s.transaction, 5u);

    a.sampleRegsUser = 0b1011; // 3 registers
    s = decodeOk(a, Bytes().u64(2).u64(10).u64(11).u64(12).u64(6)).sample();
    EXPECT_EQ(s.regsUserAbi, 2u);
    ASSERT_EQ(s.regsUser.size(), 3u);
    EXPECT_EQ(s.regsUser[2], 12u);
    EXPECT_EQ(s.transaction, 6u);
}

TEST(DecodeSample, StackUserDynSizeOnlyWhenSizeNonZero)
{
    auto a = attrWith(perf::SampleStackUser | perf::SampleTransaction);
    auto s = decodeOk(a, Bytes().u64(0).u64(7)).sample(); // size 0: no data, no dyn_size
    EXPECT_EQ(s.stackUserSize, 0u);
    EXPECT_EQ(s.transaction, 7u);
    const auto d = decodeOk(a, Bytes().u64(16).fill(16, 0x5a).u64(12).u64(8)); // stackUser points into d.bytes
    s = d.sample();
    EXPECT_EQ(s.stackUserSize, 16u);
    ASSERT_EQ(s.stackUser.size(), 16u);
    EXPECT_EQ(s.stackUserDynSize, 12u);
    EXPECT_EQ(s.transaction, 8u);
}

TEST(DecodeSample, WeightAndWeightStruct)
{
    auto s = decodeOk(attrWith(perf::SampleWeight), Bytes().u64(0x0003000200000123ull)).sample();
    EXPECT_EQ(s.latency(), 0x0003000200000123ull);
    // WEIGHT_STRUCT {u32 var1_dw; u16 var2_w; u16 var3_w}
    s = decodeOk(attrWith(perf::SampleWeightStruct | perf::SampleDataSrc),
        Bytes().u32(0x123).u16(2).u16(3).u64(0x10268100142ull))
            .sample();
    EXPECT_EQ(s.weight.var1, 0x123u);
    EXPECT_EQ(s.weight.var2, 2u);
    EXPECT_EQ(s.weight.var3, 3u);
    EXPECT_EQ(s.latency(), 0x123u);
    EXPECT_EQ(s.dataSource().level(), MemLevel::L1);
}

TEST(DecodeSample, RegsIntrAndAux)
{
    auto a = attrWith(perf::SampleRegsIntr | perf::SamplePhysAddr | perf::SampleAux);
    a.sampleRegsIntr = 0b110;
    const auto d = decodeOk(a, Bytes().u64(2).u64(1).u64(2).u64(0xabc000).u64(8).fill(8, 1));
    const auto& s = d.sample();
    ASSERT_EQ(s.regsIntr.size(), 2u);
    EXPECT_EQ(s.regsIntr[1], 2u);
    EXPECT_EQ(s.physAddr, 0xabc000u);
    EXPECT_EQ(s.aux.size(), 8u);
}

TEST(DecodeSample, C2cLayoutAllTogether)
{
    // perf c2c record: IP|TID|TIME|ADDR|ID|CPU|PERIOD|WEIGHT_STRUCT|DATA_SRC|PHYS_ADDR|DATA_PAGE_SIZE, misc EXACT_IP.
    const std::uint64_t t = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleAddr | perf::SampleId
        | perf::SampleCpu | perf::SamplePeriod | perf::SampleWeightStruct | perf::SampleDataSrc | perf::SamplePhysAddr
        | perf::SampleDataPageSize;
    Bytes b;
    b.u64(0x4005d0).u32(10).u32(11).u64(5000).u64(0x7f0000001040).u64(3).u32(2).u32(0).u64(10009);
    b.u32(64).u16(0).u16(0).u64(0x11868100242ull).u64(0x2000040).u64(4096);
    auto r = decodeOk(attrWith(t), b, perf::MiscUser | perf::MiscExactIp);
    const auto& s = r.sample();
    EXPECT_EQ(s.cpumode(), perf::MiscUser);
    EXPECT_TRUE(s.exactIp());
    EXPECT_EQ(s.addr, 0x7f0000001040u);
    EXPECT_EQ(s.cpu, 2u);
    EXPECT_EQ(s.latency(), 64u);
    EXPECT_EQ(s.dataSource().level(), MemLevel::Lfb);
    EXPECT_EQ(s.physAddr, 0x2000040u);
    EXPECT_EQ(s.dataPageSize, 4096u);
}

TEST(DecodeSample, EveryTruncationIsAnErrorNeverACrash)
{
    auto a = attrWith(perf::SampleIdentifier | perf::SampleIp | perf::SampleTid | perf::SampleRead
        | perf::SampleCallchain | perf::SampleRaw | perf::SampleBranchStack | perf::SampleRegsUser
        | perf::SampleStackUser | perf::SampleWeight | perf::SampleDataSrc | perf::SampleCgroup);
    a.readFormat = perf::ReadGroup | perf::ReadId;
    a.sampleRegsUser = 0x3;
    Bytes b;
    b.u64(1).u64(2).u32(3).u32(4).u64(1).u64(5).u64(6).u64(2).u64(7).u64(8).u32(4).u32(0xeeee);
    b.u64(1).u64(9).u64(10).u64(11).u64(2).u64(12).u64(13).u64(8).u64(14).u64(8).u64(15).u64(16).u64(17);
    RecordDecoder d;
    d.addEvent(a);
    DecodedRecord out;
    auto full = Bytes::record(perf::RecordSample, 0, b);
    ASSERT_TRUE(d.decode(full, out).ok());
    EXPECT_EQ(out.sample.cgroup, 17u);
    for (std::size_t cut = 8; cut < full.size(); cut += 4) {
        auto bytes = full;
        bytes.resize(cut);
        const auto size = static_cast<std::uint16_t>(cut);
        std::memcpy(bytes.data() + 6, &size, 2); // a consistent header that promises less
        auto st = d.decode(bytes, out);
        EXPECT_FALSE(st.ok()) << "cut at " << cut;
        if (!st.ok()) {
            EXPECT_NE(st.error().message.find("truncated"), std::string::npos) << st.error().message;
        }
    }
}

TEST(DecodeSample, HugeCountsAreRejectedWithoutAllocating)
{
    RecordDecoder d;
    d.addEvent(attrWith(perf::SampleCallchain));
    DecodedRecord out;
    auto st = d.decode(Bytes::record(perf::RecordSample, 0, Bytes().u64(~0ull).u64(1)), out);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("CALLCHAIN"), std::string::npos);
    RecordDecoder d2;
    d2.addEvent(attrWith(perf::SampleBranchStack));
    st = d2.decode(Bytes::record(perf::RecordSample, 0, Bytes().u64(1ull << 60)), out);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("BRANCH_STACK"), std::string::npos);
}

TEST(DecodeSample, HeaderSizeMustMatchTheBytes)
{
    RecordDecoder d;
    d.addEvent(attrWith(perf::SampleIp));
    DecodedRecord out;
    auto rec = Bytes::record(perf::RecordSample, 0, Bytes().u64(1));
    rec.push_back(std::byte { 0 });
    EXPECT_FALSE(d.decode(rec, out).ok());
    EXPECT_FALSE(d.decode(std::span<const std::byte>(rec.data(), 4), out).ok());
}

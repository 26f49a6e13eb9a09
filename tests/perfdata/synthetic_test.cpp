// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-built pipe-mode streams for what the real fixtures do not contain: COMPRESSED2 with a record split across
// two compressed payloads, TRACING_DATA and AUXTRACE payloads that follow their records, in-band build ids,
// unknown record types, and events known only from HEADER_ATTR.

#include "../pmu/DecodeBytes.h"
#include "perfdata/PerfDataReader.h"

#include <gtest/gtest.h>

#include <cstring>

#include <zstd.h>

using namespace rdt;
using namespace rdt::perfdata;
using rdt::pmu::test::Bytes;

namespace {

std::vector<std::byte> pipeHeader()
{
    return Bytes().u64(MagicLE).u64(16).bytes();
}

pmu::EventAttr sampleAttr()
{
    pmu::EventAttr a;
    a.type = 1;
    a.sampleType = pmu::perf::SampleIp | pmu::perf::SampleTid | pmu::perf::SamplePeriod;
    return a;
}

std::vector<std::byte> attrRecord(const pmu::EventAttr& a, std::uint64_t id)
{
    Bytes b;
    b.raw(pmu::serializeEventAttr(a, 120)).u64(id);
    return Bytes::record(pmu::perf::RecordHeaderAttr, 0, b);
}

std::vector<std::byte> sample(std::uint64_t ip)
{
    return Bytes::record(pmu::perf::RecordSample, 2, Bytes().u64(ip).u32(7).u32(7).u64(1000));
}

void append(std::vector<std::byte>& to, const std::vector<std::byte>& what)
{
    to.insert(to.end(), what.begin(), what.end());
}

struct Result_ {
    ReadStats stats;
    std::vector<std::uint64_t> ips;
    HeaderInfo header;
};

Result_ readBytes(const std::vector<std::byte>& bytes)
{
    Result_ r;
    auto reader = PerfDataReader::fromBytes(bytes);
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().toString());
    if (!reader.ok()) return r;
    auto st = (*reader)->read([&](const pmu::DecodedRecord& rec) {
        if (rec.kind == pmu::RecordKind::Sample) r.ips.push_back(rec.sample.ip);
        return true;
    });
    EXPECT_TRUE(st.ok());
    if (st.ok()) r.stats = *st;
    r.header = (*reader)->header();
    return r;
}

} // namespace

TEST(PerfdataSynthetic, Compressed2WithARecordSplitAcrossPayloads)
{
    // Three samples compressed as one zstd frame, cut in two COMPRESSED2 records in the middle of the 2nd sample.
    std::vector<std::byte> plain;
    append(plain, sample(0x1000));
    append(plain, sample(0x2000));
    append(plain, sample(0x3000));
    std::vector<std::byte> z(ZSTD_compressBound(plain.size()));
    const std::size_t zn = ZSTD_compress(z.data(), z.size(), plain.data(), plain.size(), 3);
    ASSERT_FALSE(ZSTD_isError(zn));
    z.resize(zn);
    const std::size_t cut = zn / 2;
    auto compressed2 = [](std::span<const std::byte> data) {
        Bytes b;
        b.u64(data.size()).raw(std::vector<std::byte>(data.begin(), data.end()));
        while (b.size() % 8)
            b.u8(0);
        return Bytes::record(pmu::perf::RecordCompressed2, 0, b);
    };
    auto stream = pipeHeader();
    append(stream, attrRecord(sampleAttr(), 5));
    append(stream, compressed2(std::span(z).first(cut)));
    append(stream, compressed2(std::span(z).subspan(cut)));
    auto r = readBytes(stream);
    EXPECT_EQ(r.ips, (std::vector<std::uint64_t> { 0x1000, 0x2000, 0x3000 }));
    EXPECT_EQ(r.stats.compressedRecords, 2u);
    EXPECT_EQ(r.stats.decompressedBytes, plain.size());
    EXPECT_EQ(r.stats.decodeErrors, 0u);
    ASSERT_EQ(r.header.events.size(), 1u); // known from HEADER_ATTR alone
    EXPECT_EQ(r.header.events[0].ids, (std::vector<std::uint64_t> { 5 }));
}

TEST(PerfdataSynthetic, PayloadsAfterTracingDataAndAuxtraceAreSkipped)
{
    auto stream = pipeHeader();
    append(stream, attrRecord(sampleAttr(), 5));
    append(stream, sample(0x1000));
    // HEADER_TRACING_DATA {header, u32 size=13} + 13 bytes of data padded to 16.
    append(stream, Bytes::record(pmu::perf::RecordHeaderTracingData, 0, Bytes().u32(13)));
    append(stream, Bytes().fill(16, 0xee).bytes());
    append(stream, sample(0x2000));
    // AUXTRACE {header, u64 size=24, offset, reference, idx, tid, cpu, reserved} + 24 bytes.
    append(
        stream, Bytes::record(pmu::perf::RecordAuxtrace, 0, Bytes().u64(24).u64(0).u64(0).u32(0).u32(0).u32(0).u32(0)));
    append(stream, Bytes().fill(24, 0x09).bytes());
    append(stream, sample(0x3000));
    // An unknown user record and an unknown kernel record: skipped by their size and counted.
    append(stream, Bytes::record(99, 0, Bytes().u64(1)));
    append(stream, Bytes::record(40, 0, Bytes().u64(1)));
    append(stream, sample(0x4000));
    auto r = readBytes(stream);
    EXPECT_EQ(r.ips, (std::vector<std::uint64_t> { 0x1000, 0x2000, 0x3000, 0x4000 }));
    EXPECT_EQ(r.stats.skippedPayloadBytes, 40u);
    EXPECT_EQ(r.stats.unknownRecords, 2u);
    EXPECT_FALSE(r.stats.truncated);
}

TEST(PerfdataSynthetic, InBandBuildIdsAndFeatures)
{
    auto stream = pipeHeader();
    append(stream, attrRecord(sampleAttr(), 5));
    // HEADER_BUILD_ID with the size byte (misc bit 15): an 8-byte id.
    Bytes bid;
    bid.u32(static_cast<std::uint32_t>(-1));
    for (std::uint8_t i = 0; i < 20; ++i)
        bid.u8(i < 8 ? static_cast<std::uint8_t>(0x10 + i) : 0);
    bid.u8(8).u8(0).u16(0).str("/usr/bin/prog");
    append(stream, Bytes::record(pmu::perf::RecordHeaderBuildId, MiscBuildIdSize | 2, bid));
    // HEADER_FEATURE hostname: {u64 feature id; perf_header_string}.
    append(stream, Bytes::record(pmu::perf::RecordHeaderFeature, 0, Bytes().u64(FeatHostname).u32(4).str("box")));
    append(stream, Bytes::record(pmu::perf::RecordFinishedRound, 0, Bytes()));
    auto r = readBytes(stream);
    ASSERT_EQ(r.header.buildIds.size(), 1u);
    EXPECT_EQ(r.header.buildIds[0].filename, "/usr/bin/prog");
    EXPECT_EQ(r.header.buildIds[0].id.size, 8u);
    EXPECT_EQ(r.header.buildIds[0].id.hex(), "1011121314151617");
    EXPECT_EQ(r.header.hostname, "box");
    EXPECT_TRUE(r.header.features.test(FeatHostname));
    EXPECT_EQ(r.stats.finishedRounds, 1u);
}

TEST(PerfdataSynthetic, CorruptCompressedPayloadIsCountedNotFatal)
{
    auto stream = pipeHeader();
    append(stream, attrRecord(sampleAttr(), 5));
    append(stream, Bytes::record(pmu::perf::RecordCompressed, 0, Bytes().fill(64, 0x42)));
    append(stream, sample(0x5000));
    auto r = readBytes(stream);
    EXPECT_EQ(r.ips, (std::vector<std::uint64_t> { 0x5000 }));
    EXPECT_EQ(r.stats.decodeErrors, 1u);
    ASSERT_FALSE(r.stats.warnings.empty());
    EXPECT_NE(r.stats.warnings[0].find("zstd"), std::string::npos);
}

// EVENT_UPDATE (pipe mode): NAME, UNIT and SCALE update the event owning the id; CPUS is skipped; an update for an
// id nobody owns is a warning, not an error.
TEST(PerfdataSynthetic, EventUpdateNamesUnitsAndScales)
{
    auto update = [](std::uint64_t type, std::uint64_t id, Bytes payload) {
        Bytes b;
        b.u64(type).u64(id).raw(payload.bytes());
        return Bytes::record(pmu::perf::RecordEventUpdate, 0, b);
    };
    auto text = [](const std::string& s) {
        Bytes b;
        for (char c : s)
            b.u8(static_cast<std::uint8_t>(c));
        do
            b.u8(0);
        while (b.size() % 8);
        return b;
    };
    double scale = 0.25;
    std::uint64_t scaleBits = 0;
    std::memcpy(&scaleBits, &scale, sizeof scale);
    auto stream = pipeHeader();
    append(stream, attrRecord(sampleAttr(), 5));
    append(stream, attrRecord(sampleAttr(), 6));
    append(stream, update(2, 6, text("cpu/mem-loads,ldlat=30/P")));
    append(stream, update(0, 6, text("MiB")));
    append(stream, update(1, 6, Bytes().u64(scaleBits)));
    append(stream, update(3, 6, Bytes().u16(0).u16(1).u32(0)));
    append(stream, update(2, 99, text("nobody")));
    append(stream, sample(0x1000));
    auto r = readBytes(stream);
    ASSERT_EQ(r.header.events.size(), 2u);
    EXPECT_EQ(r.header.events[0].name, "");
    EXPECT_EQ(r.header.events[0].scale, 1.0);
    EXPECT_EQ(r.header.events[1].name, "cpu/mem-loads,ldlat=30/P");
    EXPECT_EQ(r.header.events[1].unit, "MiB");
    EXPECT_EQ(r.header.events[1].scale, 0.25);
    EXPECT_EQ(r.ips, (std::vector<std::uint64_t> { 0x1000 }));
    EXPECT_EQ(r.stats.decodeErrors, 0u);
    ASSERT_EQ(r.stats.warnings.size(), 1u);
    EXPECT_NE(r.stats.warnings[0].find("sample id 99"), std::string::npos) << r.stats.warnings[0];
}

TEST(PerfdataSynthetic, TruncatedEventUpdateIsADecodeErrorNotACrash)
{
    auto stream = pipeHeader();
    append(stream, attrRecord(sampleAttr(), 5));
    append(stream, Bytes::record(pmu::perf::RecordEventUpdate, 0, Bytes().u64(2)));
    append(stream, Bytes::record(pmu::perf::RecordEventUpdate, 0, Bytes().u64(1).u64(5)));
    append(stream, sample(0x1000));
    auto r = readBytes(stream);
    EXPECT_EQ(r.stats.decodeErrors, 2u);
    EXPECT_EQ(r.ips, (std::vector<std::uint64_t> { 0x1000 }));
    ASSERT_EQ(r.header.events.size(), 1u);
    EXPECT_EQ(r.header.events[0].scale, 1.0);
}

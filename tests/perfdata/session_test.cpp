// SPDX-License-Identifier: GPL-3.0-or-later
// An imported perf.data as a session file: written by importToSession, read back with the session reader, and its
// stored records decode to the same samples and branch entries as the original file.

#include "PerfOracle.h"
#include "perfdata/PerfAttrsPayload.h"
#include "perfdata/PerfDataSession.h"
#include "perfdata/PerfDataSessionRecords.h"
#include "session/SessionReader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

using namespace rdt;
using namespace rdt::perfdata;
using rdt::perfdata::test::dataPath;

TEST(PerfdataSession, ImportRoundTripsThroughASessionFile)
{
    const std::string out = ::testing::TempDir() + "/propeller.rdts";
    std::filesystem::remove(out);
    ImportOptions opt;
    opt.symfs = { std::string(RDTSCOPE_TEST_DATA) + "/perf" };
    auto r = importToSession(dataPath("propeller_sample_1.perfdata"), out, opt);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_GT(r->batches, 1u);
    EXPECT_EQ(r->import.samples, 3740u);
    // Refuses to overwrite unless asked.
    EXPECT_FALSE(importToSession(dataPath("propeller_sample_1.perfdata"), out, opt).ok());

    auto s = session::SessionReader::open(out);
    ASSERT_TRUE(s.ok()) << s.error().toString();
    auto& reader = **s;
    EXPECT_EQ(reader.meta().source, "import:propeller_sample_1.perfdata");
    EXPECT_FALSE(reader.meta().simulated);
    EXPECT_EQ(reader.meta().host, "nonet5.prod.google.com");
    EXPECT_NE(reader.machine().description.find("Xeon(R) Platinum 8173M"), std::string::npos);
    EXPECT_TRUE(reader.closedCleanly());

    auto attrs = reader.pmuBatches("perf-attrs");
    ASSERT_TRUE(attrs.ok());
    ASSERT_EQ(attrs->size(), 1u);
    pmu::RecordDecoder decoder;
    ASSERT_TRUE(decoderFromAttrsPayload((*attrs)[0].payload, decoder).ok());
    ASSERT_EQ(decoder.eventCount(), 1u);
    EXPECT_EQ(decoder.event(0).branchSampleType, std::uint64_t { pmu::perf::BranchAny });

    auto batches = reader.pmuBatches("perf-records");
    ASSERT_TRUE(batches.ok());
    EXPECT_EQ(batches->size(), r->batches);
    std::uint64_t samples = 0, entries = 0, errors = 0, counted = 0;
    pmu::DecodedRecord rec;
    for (const auto& b : *batches) {
        counted += b.count;
        std::size_t at = 0;
        while (at + 8 <= b.payload.size()) {
            std::uint16_t size;
            std::memcpy(&size, b.payload.data() + at + 6, 2);
            ASSERT_GE(size, 8u);
            const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(b.payload.data()) + at, size);
            if (!decoder.decode(bytes, rec))
                ++errors;
            else if (rec.kind == pmu::RecordKind::Sample) {
                ++samples;
                entries += rec.sample.branches.size();
            }
            at += size;
        }
        EXPECT_EQ(at, b.payload.size());
    }
    EXPECT_EQ(errors, 0u);
    EXPECT_EQ(samples, 3740u);
    EXPECT_EQ(counted, 3740u);
    EXPECT_EQ(entries, r->import.lbr.branches);
    EXPECT_EQ(entries, 119424u); // perf report -b: "Event count (approx.): 119424"
    auto maps = reader.addressMaps();
    ASSERT_TRUE(maps.ok());
    EXPECT_EQ(maps->size(), r->addressMaps);
    bool sawBinary = false;
    for (const auto& m : *maps)
        sawBinary = sawBinary
            || (m.path.find("propeller_sample_1.bin.gen") != std::string::npos
                && m.buildId == "572ac72487ae1966000000000000000000000000");
    EXPECT_TRUE(sawBinary);
}

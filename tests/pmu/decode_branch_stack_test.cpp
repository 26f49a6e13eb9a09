// SPDX-License-Identifier: GPL-3.0-or-later
// BranchStack: a decoded sample's branch entries are read in place from the record's bytes (no copy per sample);
// a copy of the sample owns its entries and outlives the record.

#include "DecodeBytes.h"
#include "pmu/RecordDecoder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <utility>

using namespace rdt::pmu;
using rdt::pmu::test::Bytes;

namespace {

EventAttr branchAttr()
{
    EventAttr a;
    a.type = 4;
    a.size = perf::AttrSizeVer8;
    a.sampleType = perf::SampleIp | perf::SampleBranchStack;
    return a;
}

// One sample, ip 0x10, with `n` entries i: from 0x1000 + i, to 0x2000 + i, flags i.
std::vector<std::byte> record(std::uint64_t n)
{
    Bytes b;
    b.u64(0x10).u64(n);
    for (std::uint64_t i = 0; i < n; ++i)
        b.u64(0x1000 + i).u64(0x2000 + i).u64(i);
    return Bytes::record(perf::RecordSample, 0, b);
}

} // namespace

TEST(BranchStack, DecodedEntriesAreReadInPlaceAndCopiesOwnTheirs)
{
    RecordDecoder d;
    d.addEvent(branchAttr());
    auto bytes = record(3);
    DecodedRecord out;
    ASSERT_TRUE(d.decode(bytes, out).ok());
    const BranchStack& br = out.sample.branches;
    ASSERT_EQ(br.size(), 3u);
    EXPECT_EQ(br[2].from, 0x1002u);
    EXPECT_EQ(br[2].to, 0x2002u);
    EXPECT_EQ(br[2].flags, 2u);

    const Sample copy = out.sample; // owns its entries
    Sample moved = out.sample;
    const Sample movedTo = std::move(moved);
    // The record's bytes change (the read buffer is refilled): the decoded view sees it, the copies do not.
    const std::uint64_t other = 0xdead;
    std::memcpy(bytes.data() + 8 + 16 + 2 * 24, &other, 8); // header, ip, nr, two entries
    EXPECT_EQ(br[2].from, 0xdeadu) << "decoding copied the entries";
    EXPECT_EQ(copy.branches[2].from, 0x1002u);
    EXPECT_EQ(movedTo.branches[2].from, 0x1002u);
    bytes.assign(bytes.size(), std::byte { 0xff });
    EXPECT_EQ(copy.branches[0].to, 0x2000u);

    // Every entry, in order, through the iterators (what the aggregators use).
    std::uint64_t i = 0;
    for (const auto& e : copy.branches) {
        EXPECT_EQ(e.from, 0x1000 + i);
        EXPECT_EQ(e.flags, i);
        ++i;
    }
    EXPECT_EQ(i, 3u);
    EXPECT_EQ(copy.branches.toVector().size(), 3u);
    EXPECT_EQ(copy.branches.end() - copy.branches.begin(), 3);

    // The decoder's sample is reused: the next record's stack replaces the view, an empty one clears it.
    auto next = record(1);
    ASSERT_TRUE(d.decode(next, out).ok());
    ASSERT_EQ(out.sample.branches.size(), 1u);
    EXPECT_EQ(out.sample.branches[0].from, 0x1000u);
    auto none = record(0);
    ASSERT_TRUE(d.decode(none, out).ok());
    EXPECT_TRUE(out.sample.branches.empty());
}

TEST(BranchStack, BuiltInCodeAndAppendedToAView)
{
    BranchStack built = { BranchEntry { 1, 2, 3 }, BranchEntry { 4, 5, 6 } };
    ASSERT_EQ(built.size(), 2u);
    EXPECT_EQ(built[1].to, 5u);
    built.push_back(BranchEntry { 7, 8, 9 });
    ASSERT_EQ(built.size(), 3u);
    EXPECT_EQ(built[2].flags, 9u);

    // push_back on a view first takes a copy of the viewed entries: the bytes it viewed are never written.
    const std::vector<BranchEntry> kept = { BranchEntry { 10, 11, 12 } };
    BranchStack view;
    view.view(std::as_bytes(std::span(kept)));
    view.push_back(BranchEntry { 13, 14, 15 });
    ASSERT_EQ(view.size(), 2u);
    EXPECT_EQ(view[0].from, 10u);
    EXPECT_EQ(view[1].from, 13u);
    EXPECT_EQ(kept.size(), 1u);

    const std::vector<BranchEntry> asVector = view; // what engine and GUI records keep
    ASSERT_EQ(asVector.size(), 2u);
    EXPECT_EQ(asVector[1].flags, 15u);
    view.clear();
    EXPECT_TRUE(view.empty());
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/SampleCodec.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace rdt;
using namespace rdt::protocol;

namespace {
RdtSampleBatch batchAt(std::uint64_t t, std::uint64_t scale)
{
    RdtSampleBatch b;
    b.timeNs = t;
    for (int g = 0; g < 3; ++g)
        for (int d = 0; d < 2; ++d) {
            RdtSample s;
            s.timeNs = t;
            s.group = g == 0 ? "" : "p" + std::to_string(g);
            s.domain = d;
            s.occupancyBytes = 1'000'000u * static_cast<unsigned>(g + 1);
            s.mbmTotalBytes = scale * 1000 * static_cast<unsigned>(g + 1);
            s.mbmLocalBytes = scale * 600 * static_cast<unsigned>(g + 1);
            s.mbmTotalBps = 1.5e9;
            s.mbmLocalBps = 0.9e9;
            s.flags = g == 2 ? std::uint32_t { SampleWrapped } : 0u;
            b.samples.push_back(s);
        }
    return b;
}
}

TEST(SampleCodec, RoundTripsSeveralBatchesAndSendsEachGroupNameOnce)
{
    SampleEncoder enc;
    SampleDecoder dec;
    for (std::uint64_t k = 1; k <= 4; ++k) {
        const auto in = batchAt(k * 100, k * k);
        pb::RdtSampleBatch wire;
        enc.encode(in, k - 1, wire);
        EXPECT_EQ(wire.new_groups_size(), k == 1 ? 3 : 0);
        auto out = dec.decode(wire);
        ASSERT_TRUE(out.ok()) << out.error().message;
        EXPECT_EQ(out->droppedBatches, k - 1);
        ASSERT_EQ(out->batch.samples.size(), in.samples.size());
        EXPECT_EQ(out->batch.timeNs, in.timeNs);
        for (std::size_t i = 0; i < in.samples.size(); ++i) {
            const auto& a = in.samples[i];
            const auto& b = out->batch.samples[i];
            EXPECT_EQ(a.group, b.group);
            EXPECT_EQ(a.domain, b.domain);
            EXPECT_EQ(a.occupancyBytes, b.occupancyBytes);
            EXPECT_EQ(a.mbmTotalBytes, b.mbmTotalBytes);
            EXPECT_EQ(a.mbmLocalBytes, b.mbmLocalBytes);
            EXPECT_EQ(a.flags, b.flags);
            EXPECT_DOUBLE_EQ(a.mbmTotalBps, b.mbmTotalBps);
        }
    }
}

TEST(SampleCodec, CountersGoingBackwardsRoundTripExactly)
{
    SampleEncoder enc;
    SampleDecoder dec;
    auto a = batchAt(1, 1000);
    auto b = batchAt(2, 1);
    b.samples[0].mbmTotalBytes = UINT64_MAX;
    pb::RdtSampleBatch w;
    enc.encode(a, 0, w);
    ASSERT_TRUE(dec.decode(w).ok());
    enc.encode(b, 0, w);
    auto out = dec.decode(w);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->batch.samples[0].mbmTotalBytes, UINT64_MAX);
    EXPECT_EQ(out->batch.samples[1].mbmTotalBytes, b.samples[1].mbmTotalBytes);
}

TEST(SampleCodec, InconsistentInputIsAnErrorNotACrash)
{
    {
        SampleDecoder dec;
        pb::RdtSampleBatch w;
        w.add_group(0);
        EXPECT_FALSE(dec.decode(w).ok()) << "ragged columns";
    }
    {
        SampleDecoder dec;
        pb::RdtSampleBatch w;
        w.add_new_groups("p0");
        w.add_group(1);
        w.add_domain(0);
        w.add_occupancy_bytes(0);
        w.add_mbm_total_delta(0);
        w.add_mbm_local_delta(0);
        w.add_flags(0);
        w.add_mbm_total_bps(0);
        w.add_mbm_local_bps(0);
        auto r = dec.decode(w);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find("group #1 of 1"), std::string::npos);
    }
    {
        SampleDecoder dec;
        pb::RdtSampleBatch w;
        w.add_new_groups(std::string(kMaxGroupNameBytes + 1, 'x'));
        EXPECT_FALSE(dec.decode(w).ok()) << "overlong group name";
    }
}

namespace {
/// Batches as the sampler makes them: jittered poll times, rates = bytes / elapsed seconds (rdt/Sampler.cpp).
std::vector<RdtSampleBatch> samplerLikeBatches(int count)
{
    std::vector<RdtSampleBatch> out;
    std::uint64_t t = 5'000'000'000, total = 0, local = 0;
    for (int k = 0; k < count; ++k) {
        const std::uint64_t elapsed = 100'000'000 + static_cast<std::uint64_t>((k * 7919) % 3'000'001);
        const std::uint64_t bytes = 123'456'789 + static_cast<std::uint64_t>(k) * 1'000'003;
        t += elapsed;
        total += bytes;
        local += bytes / 3;
        RdtSampleBatch b;
        b.timeNs = t;
        RdtSample s;
        s.timeNs = t;
        s.group = "p1";
        s.mbmTotalBytes = total;
        s.mbmLocalBytes = local;
        s.mbmTotalBps = static_cast<double>(bytes) / (static_cast<double>(elapsed) * 1e-9);
        s.mbmLocalBps = static_cast<double>(bytes / 3) / (static_cast<double>(elapsed) * 1e-9);
        b.samples.push_back(s);
        out.push_back(std::move(b));
    }
    return out;
}
}

TEST(SampleCodec, RatesThatFollowFromTheDeltasAreNotSentAndComeBackExactly)
{
    SampleEncoder enc;
    SampleDecoder dec;
    const auto batches = samplerLikeBatches(50);
    int derived = 0;
    for (std::size_t k = 0; k < batches.size(); ++k) {
        pb::RdtSampleBatch wire;
        enc.encode(batches[k], 0, wire);
        if (k == 0) {
            EXPECT_FALSE(wire.rates_derived()) << "a first sample has no earlier one to derive from";
        }
        if (wire.rates_derived()) {
            ++derived;
            EXPECT_EQ(wire.mbm_total_bps_size(), 0);
            EXPECT_EQ(wire.mbm_local_bps_size(), 0);
        }
        auto out = dec.decode(wire);
        ASSERT_TRUE(out) << out.error().toString();
        const auto& in = batches[k].samples[0];
        const auto& s = out->batch.samples[0];
        EXPECT_EQ(s.mbmTotalBps, static_cast<double>(std::llround(in.mbmTotalBps))) << "batch " << k;
        EXPECT_EQ(s.mbmLocalBps, static_cast<double>(std::llround(in.mbmLocalBps))) << "batch " << k;
        EXPECT_EQ(s.mbmTotalBytes, in.mbmTotalBytes);
    }
    EXPECT_GE(derived, 45) << "steady-state batches should not carry their rates";
}

TEST(SampleCodec, RatesThatDoNotFollowFromTheDeltasTravelAsTheyAre)
{
    SampleEncoder enc;
    SampleDecoder dec;
    auto batches = samplerLikeBatches(3);
    // The sampler's rate over its own (shorter) interval, as after a coalesced batch: not delta / elapsed.
    batches[2].samples[0].mbmTotalBps += 1000;
    for (const auto& b : batches) {
        pb::RdtSampleBatch wire;
        enc.encode(b, 0, wire);
        auto out = dec.decode(wire);
        ASSERT_TRUE(out) << out.error().toString();
        EXPECT_EQ(out->batch.samples[0].mbmTotalBps, static_cast<double>(std::llround(b.samples[0].mbmTotalBps)));
        if (&b == &batches[2]) {
            EXPECT_FALSE(wire.rates_derived());
        }
    }
}

TEST(SampleCodec, DerivedRatesWithoutAnEarlierSampleOrWithRateColumnsAreProtocolErrors)
{
    SampleEncoder enc;
    const auto batches = samplerLikeBatches(2);
    pb::RdtSampleBatch first, second;
    enc.encode(batches[0], 0, first);
    enc.encode(batches[1], 0, second);
    ASSERT_TRUE(second.rates_derived());
    {
        SampleDecoder dec; // never saw the first batch: the series has no earlier time
        second.add_new_groups("p1");
        const auto out = dec.decode(second);
        ASSERT_FALSE(out);
        EXPECT_NE(out.error().message.find("derived rates"), std::string::npos) << out.error().message;
        second.clear_new_groups();
    }
    {
        SampleDecoder dec;
        ASSERT_TRUE(dec.decode(first));
        second.add_mbm_total_bps(1);
        second.add_mbm_local_bps(1);
        EXPECT_FALSE(dec.decode(second));
    }
}

TEST(SampleCodec, TelemetryRowsRoundTripWithTheSamplesGroupTable)
{
    SampleEncoder enc;
    SampleDecoder dec;
    auto in = batchAt(100, 1);
    // A group with telemetry but no RDT sample in this batch gets its name announced too.
    in.telemetry = { { 100, "p1", 0, "core_energy", 1234.5, 6.25, 0 },
        { 100, "only-telemetry", 1, "activity", 0.125, 0, SampleFirst },
        { 100, "p1", 0, "uops_retired", 9.007199254740993e15, 1e9, SampleTelemetryUnavailable } };
    pb::RdtSampleBatch wire;
    enc.encode(in, 0, wire);
    auto out = dec.decode(wire);
    ASSERT_TRUE(out) << out.error().toString();
    ASSERT_EQ(out->batch.telemetry.size(), in.telemetry.size());
    for (std::size_t i = 0; i < in.telemetry.size(); ++i) {
        const auto& a = in.telemetry[i];
        const auto& b = out->batch.telemetry[i];
        EXPECT_EQ(b.timeNs, a.timeNs);
        EXPECT_EQ(b.group, a.group);
        EXPECT_EQ(b.package, a.package);
        EXPECT_EQ(b.event, a.event);
        EXPECT_EQ(b.value, a.value);
        EXPECT_EQ(b.perSecond, a.perSecond);
        EXPECT_EQ(b.flags, a.flags);
    }
    // The next batch names the group by its index only, and still decodes.
    auto next = batchAt(200, 2);
    next.telemetry = { { 200, "only-telemetry", 1, "activity", 0.25, 0.0025, 0 } };
    enc.encode(next, 0, wire);
    EXPECT_EQ(wire.new_groups_size(), 0);
    auto out2 = dec.decode(wire);
    ASSERT_TRUE(out2) << out2.error().toString();
    ASSERT_EQ(out2->batch.telemetry.size(), 1u);
    EXPECT_EQ(out2->batch.telemetry[0].group, "only-telemetry");
}

TEST(SampleCodec, HostileTelemetryRowsAreProtocolErrors)
{
    auto decodeWith = [](auto edit) {
        SampleEncoder enc;
        SampleDecoder dec;
        auto in = batchAt(100, 1);
        in.telemetry = { { 100, "p1", 0, "core_energy", 1.0, 0, 0 } };
        pb::RdtSampleBatch wire;
        enc.encode(in, 0, wire);
        edit(wire);
        return dec.decode(wire);
    };
    auto badGroup = decodeWith([](pb::RdtSampleBatch& w) { w.mutable_telemetry(0)->set_group(999); });
    ASSERT_FALSE(badGroup);
    EXPECT_NE(badGroup.error().message.find("telemetry refers to group #999"), std::string::npos);
    auto longName = decodeWith([](pb::RdtSampleBatch& w) { w.mutable_telemetry(0)->set_event(std::string(65, 'e')); });
    EXPECT_FALSE(longName);
    auto emptyName = decodeWith([](pb::RdtSampleBatch& w) { w.mutable_telemetry(0)->set_event(""); });
    EXPECT_FALSE(emptyName);
    auto nan = decodeWith([](pb::RdtSampleBatch& w) { w.mutable_telemetry(0)->set_value(std::nan("")); });
    EXPECT_FALSE(nan);
    auto tooMany = decodeWith([](pb::RdtSampleBatch& w) {
        for (std::size_t i = 0; i < kMaxTelemetryRows; ++i)
            *w.add_telemetry() = w.telemetry(0);
    });
    ASSERT_FALSE(tooMany);
    EXPECT_NE(tooMany.error().message.find("telemetry rows"), std::string::npos);
}

// Intel SNC (--nodes over --connect): each node of an L3 is its own series; only the node rows travel, with a
// node column, and the receiver sums them into the L3 row as the sampler did (rdt::splitSncNodes); a node below -1
// or a column of the wrong length is a protocol error.
TEST(SampleCodec, SncNodesAreSeriesOfTheirOwn)
{
    SampleEncoder enc;
    SampleDecoder dec;
    for (std::uint64_t k = 1; k <= 3; ++k) {
        RdtSampleBatch in;
        in.timeNs = k * 1000;
        for (int node = 0; node < 2; ++node) {
            RdtSample s;
            s.timeNs = in.timeNs;
            s.group = "victim";
            s.domain = 1;
            s.node = node;
            s.mbmTotalBytes = k * 1000 * static_cast<unsigned>(node + 1); // different series, different counts
            s.occupancyBytes = 100u * static_cast<unsigned>(node + 1);
            s.flags = node == 1 && k == 2 ? SampleWrapped : 0u;
            in.samples.push_back(s);
        }
        splitSncNodes(in); // as the sampler publishes it
        ASSERT_EQ(in.nodeSamples.size(), 2u);
        ASSERT_EQ(in.samples.size(), 1u);
        EXPECT_EQ(in.samples[0].node, -1);
        EXPECT_EQ(in.samples[0].occupancyBytes, 300u);
        EXPECT_EQ(in.samples[0].mbmTotalBytes, k * 3000);
        EXPECT_EQ(in.samples[0].flags, k == 2 ? SampleWrapped : 0u); // a node's flag is its L3's
        pb::RdtSampleBatch wire;
        enc.encode(in, 0, wire);
        EXPECT_EQ(wire.node_size(), 2);
        EXPECT_EQ(wire.group_size(), 2); // the sum does not travel
        auto out = dec.decode(wire);
        ASSERT_TRUE(out.ok()) << out.error().message;
        ASSERT_EQ(out->batch.nodeSamples.size(), 2u);
        for (std::size_t i = 0; i < 2; ++i) {
            EXPECT_EQ(out->batch.nodeSamples[i].node, in.nodeSamples[i].node);
            EXPECT_EQ(out->batch.nodeSamples[i].mbmTotalBytes, in.nodeSamples[i].mbmTotalBytes);
        }
        ASSERT_EQ(out->batch.samples.size(), 1u);
        EXPECT_EQ(out->batch.samples[0].node, -1);
        EXPECT_EQ(out->batch.samples[0].occupancyBytes, in.samples[0].occupancyBytes);
        EXPECT_EQ(out->batch.samples[0].mbmTotalBytes, in.samples[0].mbmTotalBytes);
        EXPECT_EQ(out->batch.samples[0].flags, in.samples[0].flags);
    }
    pb::RdtSampleBatch whole;
    SampleEncoder().encode(batchAt(5000, 1), 0, whole);
    EXPECT_EQ(whole.node_size(), 0); // no SNC: no column
    auto plain = SampleDecoder().decode(whole);
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(plain->batch.samples.front().node, -1);
    EXPECT_TRUE(plain->batch.nodeSamples.empty());

    pb::RdtSampleBatch bad = whole;
    bad.add_node(0); // one entry for six samples
    EXPECT_FALSE(SampleDecoder().decode(bad).ok());
    bad.clear_node();
    for (int i = 0; i < whole.group_size(); ++i)
        bad.add_node(-7);
    EXPECT_FALSE(SampleDecoder().decode(bad).ok());
}

// Groups a poll could not read travel with the batch (an agent's partial poll reaches the CLI's exit code); an error
// text beyond the bound is cut by the sender, and a receiver refuses one beyond it.
TEST(SampleCodec, UnreadGroupsTravelBounded)
{
    SampleEncoder enc;
    SampleDecoder dec;
    auto in = batchAt(100, 1);
    in.unread = { { "gone", "no group 'gone'" }, { "huge", std::string(kMaxUnreadErrorBytes + 10, 'x') } };
    pb::RdtSampleBatch wire;
    enc.encode(in, 0, wire);
    auto out = dec.decode(wire);
    ASSERT_TRUE(out.ok()) << out.error().message;
    ASSERT_EQ(out->batch.unread.size(), 2u);
    EXPECT_EQ(out->batch.unread[0].group, "gone");
    EXPECT_EQ(out->batch.unread[0].error, "no group 'gone'");
    EXPECT_EQ(out->batch.unread[1].error.size(), kMaxUnreadErrorBytes);
    wire.mutable_unread(1)->set_error(std::string(kMaxUnreadErrorBytes + 1, 'y'));
    SampleDecoder fresh;
    EXPECT_FALSE(fresh.decode(wire).ok());
}

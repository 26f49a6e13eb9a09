// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/Connection.h"
#include "protocol/Handshake.h"
#include "protocol/Preamble.h"

#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

using namespace rdt;
using namespace rdt::protocol;

namespace {
struct Pair {
    int a = -1;
    int b = -1;
    Pair()
    {
        int sv[2];
        EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
        a = sv[0];
        b = sv[1];
    }
};

ConnectionOptions opts(std::string name)
{
    ConnectionOptions o;
    o.peerName = std::move(name);
    o.sampleHighWaterBytes = 4096;
    o.heartbeatNs = 1000;
    o.silenceLimitNs = 10'000;
    return o;
}

RdtSampleBatch batch(std::uint64_t t)
{
    RdtSampleBatch b;
    b.timeNs = t;
    for (int g = 0; g < 64; ++g)
        for (int d = 0; d < 4; ++d) {
            RdtSample s;
            s.group = "g" + std::to_string(g);
            s.domain = d;
            s.mbmTotalBytes = t * 1000003 * static_cast<unsigned>(g + 1);
            s.occupancyBytes = t;
            b.samples.push_back(s);
        }
    return b;
}

pb::Hello makeHelloForCorpus()
{
    return makeHello("rdtscope-cli corpus", "ws");
}

std::vector<Incoming> pump(Connection& c, std::uint64_t now = 1)
{
    std::vector<Incoming> in;
    auto st = c.readAvailable(in, now);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message);
    return in;
}
}

TEST(Connection, ExchangesMessagesAfterThePreambles)
{
    Pair p;
    Connection client(UniqueFd(p.a), {}, opts("the agent"), 0);
    Connection agent(UniqueFd(p.b), {}, opts("the client"), 0);
    pb::Envelope hello;
    *hello.mutable_hello() = pb::Hello {};
    hello.mutable_hello()->set_software("t");
    ASSERT_TRUE(client.send(hello).ok());
    ASSERT_TRUE(client.flush(1).ok());
    auto in = pump(agent);
    ASSERT_EQ(in.size(), 1u);
    EXPECT_EQ(in[0].envelope.hello().software(), "t");
    EXPECT_EQ(agent.peerPreambleVersion(), kProtocolVersion);
}

TEST(Connection, PmuBatchResponsesTravelCompressedAndSmallMessagesRaw)
{
    Pair p;
    Connection client(UniqueFd(p.a), {}, opts("the agent"), 0);
    Connection agent(UniqueFd(p.b), {}, opts("the client"), 0);
    // A pump's answer: 400 decoded samples of a busy loop (a few addresses, as a real profile has).
    pb::Envelope response;
    response.mutable_response()->set_id(7);
    pb::PmuBatch* batch = response.mutable_response()->mutable_pmu_batches()->add_batches();
    batch->set_capture_id(1);
    for (int i = 0; i < 400; ++i) {
        pb::PmuSample* s = batch->add_decoded();
        s->set_time_ns(1'000'000'000ull + static_cast<std::uint64_t>(i) * 250'000);
        s->set_pid(4242);
        s->set_ip(0x401000 + static_cast<std::uint64_t>(i % 7) * 16);
    }
    pb::Envelope pong;
    pong.mutable_response()->set_id(8); // a bare answer: below the size where compression pays
    ASSERT_TRUE(agent.send(response).ok());
    ASSERT_TRUE(agent.send(pong).ok());
    ASSERT_TRUE(agent.flush(1).ok());
    EXPECT_EQ(agent.stats().framesOut, 2u);
    EXPECT_EQ(agent.stats().framesCompressed, 1u);
    EXPECT_LT(agent.stats().bytesOut, response.ByteSizeLong() / 2) << "the batch compresses well";
    auto in = pump(client);
    ASSERT_EQ(in.size(), 2u);
    EXPECT_EQ(in[0].envelope.SerializeAsString(), response.SerializeAsString());
    EXPECT_EQ(in[1].envelope.response().id(), 8u);
}

TEST(Connection, SlowReaderGetsCoalescedBatchesAndBoundedMemory)
{
    Pair p;
    int small = 4096;
    ::setsockopt(p.a, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    ::setsockopt(p.b, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    Connection agent(UniqueFd(p.a), {}, opts("the client"), 0);
    Connection client(UniqueFd(p.b), {}, opts("the agent"), 0);
    for (std::uint64_t t = 1; t <= 1000; ++t) {
        agent.sendSamples(batch(t));
        ASSERT_TRUE(agent.flush(t).ok());
    }
    EXPECT_GT(agent.stats().batchesCoalesced, 900u) << "the client never read, so nearly all were coalesced";
    // Now the client reads everything; counts add up and the last batch is the newest.
    std::uint64_t received = 0, dropped = 0, lastT = 0;
    for (int round = 0; round < 10000 && lastT != 1000; ++round) {
        ASSERT_TRUE(agent.flush(2000).ok());
        for (auto& in : pump(client)) {
            ASSERT_TRUE(in.samples.has_value());
            ++received;
            dropped += in.samples->droppedBatches;
            lastT = in.samples->batch.timeNs;
            ASSERT_EQ(in.samples->batch.samples.size(), 256u);
            EXPECT_EQ(in.samples->batch.samples[5].mbmTotalBytes, lastT * 1000003 * 2);
        }
    }
    EXPECT_EQ(lastT, 1000u);
    EXPECT_EQ(received + dropped, 1000u);
    EXPECT_GT(dropped, 0u);
}

TEST(Connection, HeartbeatWhenIdleAndErrorWhenThePeerIsSilent)
{
    Pair p;
    Connection a(UniqueFd(p.a), {}, opts("b"), 0);
    Connection b(UniqueFd(p.b), {}, opts("a"), 0);
    ASSERT_TRUE(a.flush(0).ok());
    ASSERT_TRUE(b.flush(0).ok());
    pump(a, 1);
    pump(b, 1);
    ASSERT_TRUE(a.tick(2000).ok());
    ASSERT_TRUE(a.flush(2000).ok());
    auto in = pump(b, 2000);
    ASSERT_EQ(in.size(), 1u);
    EXPECT_TRUE(in[0].envelope.has_heartbeat());
    auto st = a.tick(20'000); // b sent nothing since 1
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("b has been silent"), std::string::npos);
}

TEST(Connection, OversizedFrameClosesWithAMessage)
{
    Pair p;
    Connection agent(UniqueFd(p.a), {}, opts("client 1"), 0);
    const auto pre = encodePreamble();
    ASSERT_EQ(::write(p.b, pre.data(), pre.size()), 12);
    const std::uint8_t header[] = { 0x7f, 0xff, 0xff, 0xff, 0x00 };
    ASSERT_EQ(::write(p.b, header, sizeof header), 5);
    std::vector<Incoming> in;
    auto st = agent.readAvailable(in, 1);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("exceeds the limit"), std::string::npos) << st.error().message;
    ::close(p.b);
}

TEST(Connection, TextInsteadOfAPreambleIsQuoted)
{
    Pair p;
    Connection client(UniqueFd(p.a), {}, opts("the agent on srv"), 0);
    const std::string text = "sh: 1: rdtscope-agent: not found\n";
    ASSERT_EQ(::write(p.b, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    std::vector<Incoming> in;
    auto st = client.readAvailable(in, 1);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("printed: \"sh: 1: rdtscope-agent: not found\""), std::string::npos)
        << st.error().message;
    ::close(p.b);
}

TEST(Connection, PeerClosingMidFrameIsAnErrorCleanCloseIsNot)
{
    {
        Pair p;
        Connection c(UniqueFd(p.a), {}, opts("peer"), 0);
        const auto pre = encodePreamble();
        ASSERT_EQ(::write(p.b, pre.data(), pre.size()), 12);
        const std::uint8_t half[] = { 0, 0, 0, 9, 0, 1 };
        ASSERT_EQ(::write(p.b, half, sizeof half), 6);
        ::close(p.b);
        std::vector<Incoming> in;
        auto st = c.readAvailable(in, 1);
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.error().message.find("middle of a frame"), std::string::npos);
    }
    {
        Pair p;
        Connection c(UniqueFd(p.a), {}, opts("peer"), 0);
        const auto pre = encodePreamble();
        ASSERT_EQ(::write(p.b, pre.data(), pre.size()), 12);
        ::close(p.b);
        std::vector<Incoming> in;
        EXPECT_TRUE(c.readAvailable(in, 1).ok());
        EXPECT_TRUE(c.peerClosed());
    }
}

// The fuzz corpus (tests/data/protocol/corpus) holds valid streams that every fuzz run starts from; they must stay
// valid as the protocol changes, or the fuzzer starts from garbage. RDTSCOPE_WRITE_CORPUS=1 rewrites them.
TEST(Connection, FuzzCorpusSeedsAreValidStreams)
{
    const std::string dir = std::string(RDTSCOPE_TEST_DATA) + "/protocol/corpus";
    auto makeStream = [](int kind) {
        Pair p;
        {
            Connection w(UniqueFd(p.a), {}, opts("reader"), 0);
            pb::Envelope e;
            if (kind == 0) *e.mutable_hello() = makeHelloForCorpus();
            if (kind == 1) e.mutable_request()->set_id(7), e.mutable_request()->mutable_ping()->set_payload("x");
            if (kind == 2) e.mutable_event()->mutable_notice()->set_text("note");
            EXPECT_TRUE(w.send(e).ok());
            if (kind == 2) {
                w.sendSamples(batch(1));
                EXPECT_TRUE(w.flush(1).ok());
                w.sendSamples(batch(2));
            }
            EXPECT_TRUE(w.drain(1000).ok());
        }
        std::vector<std::uint8_t> bytes;
        std::uint8_t buf[65536];
        for (ssize_t n; (n = ::read(p.b, buf, sizeof buf)) > 0;)
            bytes.insert(bytes.end(), buf, buf + n);
        ::close(p.b);
        return bytes;
    };
    for (int kind = 0; kind < 3; ++kind) {
        const auto stream = makeStream(kind);
        const std::string path = dir + "/seed" + std::to_string(kind) + ".bin";
        if (std::getenv("RDTSCOPE_WRITE_CORPUS")) {
            FILE* f = std::fopen(path.c_str(), "wb");
            ASSERT_NE(f, nullptr);
            std::fwrite(stream.data(), 1, stream.size(), f);
            std::fclose(f);
        }
        FILE* f = std::fopen(path.c_str(), "rb");
        ASSERT_NE(f, nullptr) << path;
        std::vector<std::uint8_t> seed(1 << 20);
        seed.resize(std::fread(seed.data(), 1, seed.size(), f));
        std::fclose(f);
        Pair p;
        Connection r(UniqueFd(p.a), {}, opts("writer"), 0);
        ASSERT_EQ(::write(p.b, seed.data(), seed.size()), static_cast<ssize_t>(seed.size()));
        ::close(p.b);
        std::vector<Incoming> in;
        for (int i = 0; i < 100 && !r.peerClosed(); ++i)
            ASSERT_TRUE(r.readAvailable(in, 1).ok()) << path;
        EXPECT_GE(in.size(), 1u) << path;
        if (kind == 2) {
            EXPECT_EQ(in.size(), 3u) << "notice and two sample batches";
        }
    }
}

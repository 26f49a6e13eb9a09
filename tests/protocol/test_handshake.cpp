// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/Handshake.h"
#include "protocol/Preamble.h"

#include <gtest/gtest.h>

using namespace rdt::protocol;

namespace {
AgentIdentity agent()
{
    AgentIdentity a;
    a.software = "rdtscope-agent 9";
    a.hostname = "srv";
    a.capabilities = { "zstd", "rdt" };
    a.maxFrameBytes = 1024;
    a.heartbeatMs = 2000;
    return a;
}
}

TEST(Handshake, SameVersionIsAccepted)
{
    const auto w = answerHello(makeHello("rdtscope-cli 9", "ws"), agent(), kMinProtocolVersion, kProtocolVersion);
    EXPECT_TRUE(w.accepted());
    EXPECT_EQ(w.protocol_version(), kProtocolVersion);
    EXPECT_EQ(w.hostname(), "srv");
    EXPECT_EQ(w.capabilities_size(), 2);
    EXPECT_TRUE(checkWelcome(w, "the agent on srv").ok());
}

TEST(Handshake, OverlappingRangesPickTheHighestCommonVersion)
{
    auto hello = makeHello("c", "ws");
    hello.set_protocol_version(5);
    hello.set_min_protocol_version(2);
    const auto w = answerHello(hello, agent(), 1, 3);
    EXPECT_TRUE(w.accepted());
    EXPECT_EQ(w.protocol_version(), 3u);
}

TEST(Handshake, NewerClientGetsAClearRefusalNamingBothVersions)
{
    auto hello = makeHello("rdtscope-cli 10", "ws");
    hello.set_protocol_version(kProtocolVersion + 1);
    hello.set_min_protocol_version(kProtocolVersion + 1);
    const auto w = answerHello(hello, agent(), kMinProtocolVersion, kProtocolVersion);
    ASSERT_FALSE(w.accepted());
    EXPECT_NE(
        w.reason().find("client (rdtscope-cli 10) speaks 2, this agent (rdtscope-agent 9) speaks 1"), std::string::npos)
        << w.reason();
    EXPECT_NE(w.advice().find("update rdtscope-agent on srv"), std::string::npos) << w.advice();
    const auto st = checkWelcome(w, "the agent on srv");
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("the agent on srv refused the connection: protocol version mismatch"),
        std::string::npos);
}

TEST(Handshake, OlderClientIsToldToUpdateItself)
{
    auto hello = makeHello("old", "ws");
    hello.set_protocol_version(1);
    hello.set_min_protocol_version(1);
    const auto w = answerHello(hello, agent(), 2, 3);
    ASSERT_FALSE(w.accepted());
    EXPECT_NE(w.advice().find("update the client"), std::string::npos);
}

TEST(Handshake, ClientRejectsAWelcomeForAVersionItDoesNotSpeak)
{
    pb::Welcome w;
    w.set_accepted(true);
    w.set_protocol_version(kProtocolVersion + 5);
    const auto st = checkWelcome(w, "the agent on srv");
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().advice.find("same rdtscope release"), std::string::npos);
}

TEST(Handshake, EmptyHelloIsRefused)
{
    const auto w = answerHello(pb::Hello {}, agent(), 1, 1);
    EXPECT_FALSE(w.accepted());
}

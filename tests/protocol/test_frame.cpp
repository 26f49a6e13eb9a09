// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/Frame.h"
#include "protocol/Preamble.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using namespace rdt::protocol;

namespace {
std::vector<std::uint8_t> bytesOf(const std::string& s)
{
    return { s.begin(), s.end() };
}
std::vector<std::uint8_t> repetitive(std::size_t n)
{
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = static_cast<std::uint8_t>("group p0 domain 1 "[i % 18]);
    return v;
}
}

TEST(Frame, RoundTripsSmallAndCompressedBodiesFedByteByByte)
{
    FrameEncoder enc;
    std::vector<std::uint8_t> wire;
    const auto small = bytesOf("hello");
    const auto big = repetitive(20000);
    enc.append(small, true, wire);
    enc.append(big, true, wire);
    enc.append(big, false, wire);
    EXPECT_LT(wire.size(), small.size() + 2 * big.size()); // the middle one was compressed
    EXPECT_EQ(wire[4 + small.size() + 1 + 4], kFrameZstd);

    FrameDecoder dec;
    std::vector<std::vector<std::uint8_t>> got;
    for (std::uint8_t b : wire) {
        dec.feed({ &b, 1 });
        auto n = dec.next();
        ASSERT_TRUE(n.ok()) << n.error().message;
        if (*n) got.push_back(**n);
    }
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0], small);
    EXPECT_EQ(got[1], big);
    EXPECT_EQ(got[2], big);
    EXPECT_EQ(dec.buffered(), 0u);
}

TEST(Frame, CompressesOnlyWhenItPays)
{
    FrameEncoder enc;
    std::vector<std::uint8_t> random(4096);
    std::mt19937 rng(7);
    for (auto& b : random)
        b = static_cast<std::uint8_t>(rng());
    std::vector<std::uint8_t> wire;
    enc.append(random, true, wire);
    EXPECT_EQ(wire[4], 0) << "incompressible bodies travel raw";
    EXPECT_EQ(wire.size(), random.size() + kFrameHeaderBytes);
    wire.clear();
    enc.append(bytesOf(std::string(100, 'a')), true, wire);
    EXPECT_EQ(wire[4], 0) << "small bodies travel raw";
}

TEST(Frame, OversizedHeaderIsRejectedBeforeTheBodyIsBuffered)
{
    FrameDecoder dec(1024);
    const std::uint8_t header[] = { 0x00, 0x10, 0x00, 0x00, 0x00 }; // 1 MiB announced
    dec.feed(header);
    auto n = dec.next();
    ASSERT_FALSE(n.ok());
    EXPECT_NE(n.error().message.find("exceeds the limit of 1.0 KiB"), std::string::npos) << n.error().message;
}

TEST(Frame, ZeroLengthAndUnknownFlagsAreErrors)
{
    {
        FrameDecoder dec;
        const std::uint8_t f[] = { 0, 0, 0, 0, 0 };
        dec.feed(f);
        EXPECT_FALSE(dec.next().ok());
    }
    {
        FrameDecoder dec;
        const std::uint8_t f[] = { 0, 0, 0, 2, 0x80, 'x' };
        dec.feed(f);
        auto n = dec.next();
        ASSERT_FALSE(n.ok());
        EXPECT_NE(n.error().message.find("unknown frame flags"), std::string::npos);
    }
}

TEST(Frame, ZstdBombIsRejectedByItsDeclaredSize)
{
    FrameEncoder enc;
    std::vector<std::uint8_t> wire;
    enc.append(std::vector<std::uint8_t>(64 * 1024, 0), true, wire);
    ASSERT_EQ(wire[4], kFrameZstd);
    FrameDecoder dec(32 * 1024); // the compressed frame is small, its content is not
    dec.feed(wire);
    auto n = dec.next();
    ASSERT_FALSE(n.ok());
    EXPECT_NE(n.error().message.find("expands to 64.0 KiB"), std::string::npos) << n.error().message;
}

TEST(Frame, CorruptCompressedBodyIsAnError)
{
    FrameEncoder enc;
    std::vector<std::uint8_t> wire;
    enc.append(repetitive(8192), true, wire);
    ASSERT_EQ(wire[4], kFrameZstd);
    wire[wire.size() - 3] ^= 0xff;
    wire[wire.size() / 2] ^= 0x55;
    FrameDecoder dec;
    dec.feed(wire);
    EXPECT_FALSE(dec.next().ok());
}

TEST(Preamble, RoundTripsAndExplainsWhatCameInstead)
{
    const auto p = encodePreamble(7);
    auto v = parsePreamble(p, "the agent on srv");
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(*v, 7u);

    const auto text = bytesOf("Welcome to srv!\nLast login: never\n");
    auto e = parsePreamble(text, "the agent on srv");
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("printed: \"Welcome to srv! | Last login: never\""), std::string::npos)
        << e.error().message;
    EXPECT_NE(e.error().advice.find("login scripts quiet"), std::string::npos);

    const std::vector<std::uint8_t> binary = { 0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0, 0, 0, 0, 0, 0 };
    auto b = parsePreamble(binary, "unix:/run/x");
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().message.find("does not speak the rdtscope protocol"), std::string::npos);

    auto zero = parsePreamble(encodePreamble(0), "x");
    EXPECT_FALSE(zero.ok());
}

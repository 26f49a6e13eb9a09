// SPDX-License-Identifier: GPL-3.0-or-later
// core/PercentileSketch: exact while small, within its stated error once bucketed, mergeable, and stored as bytes
// that decode to the same sketch (sessions keep one per series and minute) while malformed bytes are refused.
#include "core/PercentileSketch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using rdt::PercentileSketch;

TEST(PercentileSketch, ExactWhileSmall)
{
    PercentileSketch s;
    for (int i = 1; i <= 100; ++i)
        s.add(i);
    EXPECT_TRUE(s.exact());
    EXPECT_DOUBLE_EQ(s.mean(), 50.5);
    EXPECT_DOUBLE_EQ(s.percentile(0.95), 95); // nearest rank: ceil(0.95 * 100) = 95th value
    EXPECT_DOUBLE_EQ(s.percentile(1.0), 100);
    EXPECT_DOUBLE_EQ(s.percentile(0.0), 1);
}

TEST(PercentileSketch, WithinHalfAPercentWhenSpilled)
{
    PercentileSketch s;
    std::vector<double> all;
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> dist(20.0, 1.5); // bandwidth-like values spanning decades
    for (int i = 0; i < 200'000; ++i) {
        const double v = i % 17 == 0 ? 0.0 : dist(rng);
        s.add(v);
        all.push_back(v);
    }
    EXPECT_FALSE(s.exact());
    std::sort(all.begin(), all.end());
    for (double q : { 0.5, 0.95, 0.99 }) {
        const double exact = all[static_cast<std::size_t>(std::ceil(q * static_cast<double>(all.size()))) - 1];
        EXPECT_NEAR(s.percentile(q), exact, exact * 0.005) << "q=" << q;
    }
    EXPECT_EQ(s.percentile(0.01), 0.0); // the zeros (1 in 17) are counted exactly
    EXPECT_NEAR(
        s.mean(), std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size()), 1e-3 * s.mean());
}

TEST(PercentileSketch, MergedSketchesEqualOneSketchOfEverything)
{
    std::mt19937_64 rng(11);
    std::lognormal_distribution<double> dist(18.0, 1.0);
    PercentileSketch all = PercentileSketch::bucketed();
    PercentileSketch merged;
    for (int part = 0; part < 20; ++part) {
        PercentileSketch piece = part % 3 == 0 ? PercentileSketch() : PercentileSketch::bucketed();
        for (int i = 0; i < 600; ++i) {
            const double v = i % 97 == 0 ? 0.0 : dist(rng);
            piece.add(v);
            all.add(v);
        }
        merged.merge(piece);
    }
    EXPECT_EQ(merged.count(), all.count());
    EXPECT_DOUBLE_EQ(merged.min(), all.min());
    EXPECT_DOUBLE_EQ(merged.max(), all.max());
    EXPECT_NEAR(merged.mean(), all.mean(), all.mean() * 1e-12);
    for (double q : { 0.0, 0.01, 0.5, 0.95, 0.99, 1.0 })
        EXPECT_DOUBLE_EQ(merged.percentile(q), all.percentile(q)) << "q=" << q;

    PercentileSketch small; // two exact sketches that fit together stay exact
    PercentileSketch other;
    for (int i = 1; i <= 10; ++i)
        (i % 2 ? small : other).add(i);
    small.merge(other);
    EXPECT_TRUE(small.exact());
    EXPECT_DOUBLE_EQ(small.percentile(0.95), 10);
}

TEST(PercentileSketch, EncodedBytesDecodeToTheSameSketch)
{
    PercentileSketch exact;
    for (int i = 0; i < 600; ++i)
        exact.add(i % 50 == 0 ? 0.0 : 1e9 + i * 1e6);
    const std::string bytes = exact.encode();
    EXPECT_LT(bytes.size(), 400u) << "600 values in about a hundred buckets, not 4.8 kB";
    auto back = PercentileSketch::decode(bytes);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_FALSE(back->exact());
    EXPECT_EQ(back->count(), exact.count());
    EXPECT_DOUBLE_EQ(back->mean(), exact.mean());
    EXPECT_DOUBLE_EQ(back->min(), exact.min());
    EXPECT_DOUBLE_EQ(back->max(), exact.max());
    for (double q : { 0.01, 0.5, 0.95 })
        EXPECT_NEAR(back->percentile(q), exact.percentile(q), exact.percentile(q) * 0.005) << "q=" << q;
    EXPECT_EQ(back->encode(), bytes);
    auto empty = PercentileSketch::decode(PercentileSketch().encode());
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ(empty->count(), 0u);
}

TEST(PercentileSketch, MalformedBytesAreRefused)
{
    PercentileSketch s;
    for (int i = 1; i <= 300; ++i)
        s.add(i * 1000.0);
    const std::string bytes = s.encode();
    for (std::size_t n = 0; n < bytes.size(); ++n) // every truncation
        EXPECT_FALSE(PercentileSketch::decode(bytes.substr(0, n)).ok()) << n;
    EXPECT_FALSE(PercentileSketch::decode(bytes + "x").ok());
    std::string wrongCount = bytes;
    wrongCount[1] = static_cast<char>(wrongCount[1] ^ 1); // the count no longer matches the buckets
    EXPECT_FALSE(PercentileSketch::decode(wrongCount).ok());
    // A huge bucket count in a few bytes must not allocate: refused before any buffer is sized.
    const std::string huge = std::string("\x01\x05\x00\x01", 4) + "\xff\xff\xff\xff\x0f" + std::string(24, '\0');
    auto r = PercentileSketch::decode(huge);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("malformed"), std::string::npos) << r.error().message;
    std::mt19937_64 rng(3);
    for (int i = 0; i < 2000; ++i) { // random bytes after a valid version byte: refused or consistent, never a crash
        std::string junk(1 + rng() % 40, '\0');
        for (auto& c : junk)
            c = static_cast<char>(rng());
        junk[0] = 1;
        if (auto d = PercentileSketch::decode(junk); d.ok()) {
            EXPECT_LE(d->percentile(0.5), d->max());
        }
    }
}

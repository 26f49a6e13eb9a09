// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/FlatHashMap.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace rdt;

namespace {
struct Identity {
    std::uint64_t operator()(std::uint64_t v) const { return v; }
};
struct Constant { // every key in one chain: probing alone must keep them apart
    std::uint64_t operator()(std::uint64_t) const { return 42; }
};
} // namespace

TEST(FlatHashMap, CountsLikeStdMapAcrossGrowth)
{
    FlatHashMap<std::uint64_t, std::uint64_t, Identity> flat;
    std::map<std::uint64_t, std::uint64_t> reference;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200000; ++i) {
        const std::uint64_t key = rng() % 5000 * 4096; // page-aligned keys: weak low bits
        ++flat[key];
        ++reference[key];
    }
    EXPECT_EQ(flat.size(), reference.size());
    std::size_t visited = 0;
    flat.forEach([&](std::uint64_t key, std::uint64_t count) {
        ++visited;
        EXPECT_EQ(count, reference.at(key)) << key;
    });
    EXPECT_EQ(visited, reference.size());
    for (const auto& [key, count] : reference)
        EXPECT_EQ(*flat.find(key), count);
    EXPECT_EQ(flat.find(1), nullptr);
}

TEST(FlatHashMap, CollidingKeysStayApartAndClearEmpties)
{
    FlatHashMap<std::uint64_t, int, Constant> flat;
    EXPECT_EQ(flat.find(0), nullptr);
    for (std::uint64_t k = 0; k < 100; ++k)
        flat[k] = static_cast<int>(k) + 1;
    EXPECT_EQ(flat.size(), 100u);
    for (std::uint64_t k = 0; k < 100; ++k)
        EXPECT_EQ(*flat.find(k), static_cast<int>(k) + 1);
    flat.clear();
    EXPECT_TRUE(flat.empty());
    EXPECT_EQ(flat.find(5), nullptr);
    EXPECT_EQ(flat[5], 0); // value-initialised again
}

TEST(FlatHashMap, InserterAfterReserveCountsLikeOperatorIndex)
{
    // The hot-loop form: reserve room for a batch, then insert through the Inserter (no growth check per key).
    FlatHashMap<std::uint64_t, std::uint64_t, Identity> flat;
    std::map<std::uint64_t, std::uint64_t> reference;
    std::mt19937_64 rng(11);
    for (int batch = 0; batch < 2000; ++batch) {
        flat.reserveMore(32);
        auto in = flat.inserter();
        for (int i = 0; i < 32; ++i) {
            const std::uint64_t key = rng() % 3000 << 12;
            ++in[key];
            ++reference[key];
        }
        ++flat[batch]; // operator[] between batches may grow the table
        ++reference[static_cast<std::uint64_t>(batch)];
    }
    EXPECT_EQ(flat.size(), reference.size());
    for (const auto& [key, count] : reference)
        EXPECT_EQ(*flat.find(key), count) << key;
}

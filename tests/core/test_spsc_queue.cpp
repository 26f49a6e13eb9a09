// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/SpscQueue.h"

#include <gtest/gtest.h>
#include <thread>

using namespace rdt;

TEST(SpscQueue, FifoAndCountsDrops)
{
    SpscQueue<int> q(2);
    EXPECT_TRUE(q.push(1));
    EXPECT_TRUE(q.push(2));
    EXPECT_FALSE(q.push(3));
    EXPECT_EQ(q.dropped(), 1u);
    EXPECT_EQ(q.pop().value(), 1);
    EXPECT_TRUE(q.push(4));
    EXPECT_EQ(q.pop().value(), 2);
    EXPECT_EQ(q.pop().value(), 4);
    EXPECT_FALSE(q.pop().has_value());
    EXPECT_TRUE(q.empty());
}

TEST(SpscQueue, ProducerConsumerThreadsSeeEveryItemInOrderOrCountedDrop)
{
    SpscQueue<int> q(64);
    constexpr int n = 200000;
    std::thread producer([&] {
        for (int i = 0; i < n; ++i)
            q.push(i);
    });
    long long received = 0;
    int last = -1;
    bool ordered = true;
    while (true) {
        if (auto v = q.pop()) {
            ordered = ordered && *v > last;
            last = *v;
            ++received;
            if (*v == n - 1) break;
        } else if (q.dropped() + static_cast<std::uint64_t>(received) == n) {
            break;
        }
    }
    producer.join();
    while (auto v = q.pop())
        ++received;
    EXPECT_TRUE(ordered);
    EXPECT_EQ(static_cast<std::uint64_t>(received) + q.dropped(), static_cast<std::uint64_t>(n));
}

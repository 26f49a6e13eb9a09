// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/Result.h"

#include <cerrno>
#include <gtest/gtest.h>

using namespace rdt;

static Result<int> half(int v)
{
    if (v % 2) return makeError("odd value", "pass an even number");
    return v / 2;
}

TEST(Result, CarriesValueOrError)
{
    auto a = half(8);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(*a, 4);
    auto b = half(3);
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().message, "odd value");
    EXPECT_EQ(b.valueOr(-1), -1);
}

TEST(Result, ErrnoErrorAddsAdvice)
{
    const Error e = errnoError(EACCES, "cannot open /sys/fs/resctrl/schemata");
    EXPECT_EQ(e.code, EACCES);
    EXPECT_NE(e.advice.find("root"), std::string::npos);
    EXPECT_NE(e.toString().find("Permission denied"), std::string::npos);
    EXPECT_NE(errnoError(EBUSY, "x").advice.find("pqos"), std::string::npos);
    EXPECT_NE(errnoError(ENOENT, "x").advice.find("check the path"), std::string::npos);
}

TEST(Result, StatusDefaultsToOk)
{
    Status s;
    EXPECT_TRUE(s.ok());
    Status f = makeError("failed");
    EXPECT_FALSE(f.ok());
    EXPECT_EQ(f.error().toString(), "failed");
}

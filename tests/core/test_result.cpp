// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/Result.h"

#include <cerrno>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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

// Advice that fits the cause (issue #14 item 5): a read-only file system is not a permission problem, and root
// that is refused is told about security modules and containers, never to "run as root".
TEST(ErrorAdvice, ReadOnlyFileSystemIsNotAPermissionProblem)
{
    const auto rofs = rdt::adviceForErrno(EROFS);
    EXPECT_NE(rofs.find("read-only"), std::string::npos) << rofs;
    EXPECT_NE(rofs.find("remount"), std::string::npos) << rofs;
    EXPECT_EQ(rofs.find("run as root,"), std::string::npos) << rofs;
    EXPECT_NE(rdt::adviceForErrno(ENOSPC), rdt::adviceForErrno(EBUSY));
}

TEST(ErrorAdvice, PermissionDeniedSaysWhatFitsWhoWasRefused)
{
    // In a child, as root (when the tests run as root) and then as nobody, so both answers are checked here.
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (::geteuid() == 0) {
            const auto root = rdt::adviceForErrno(EACCES);
            if (root.find("security module") == std::string::npos || root.find("run as root,") != std::string::npos)
                _exit(1);
            if (::setuid(65534) != 0) _exit(2);
        }
        const auto user = rdt::adviceForErrno(EACCES);
        _exit(user.find("run as root") != std::string::npos && user.find("CAP_SYS_ADMIN") != std::string::npos ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: root told to run as root; 2: cannot drop to nobody; 3: user advice";
}

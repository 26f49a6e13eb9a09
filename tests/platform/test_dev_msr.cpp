// SPDX-License-Identifier: GPL-3.0-or-later
// DevMsr against ordinary files standing in for /dev/cpu/N/msr: the MSR address is the file offset.
#include "TempDir.h"

#include "platform/DevMsr.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rdt;
using namespace rdt::test;

namespace {

void makeMsrFile(const TempDir& d, unsigned cpu, std::size_t size)
{
    d.write(std::to_string(cpu) + "/msr", std::string(size, '\0'));
}

std::uint64_t rawAt(const std::string& path, off_t offset)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    std::uint64_t v = 0;
    EXPECT_EQ(::pread(fd, &v, sizeof v, offset), static_cast<ssize_t>(sizeof v));
    ::close(fd);
    return v;
}

} // namespace

TEST(DevMsr, WritesAndReadsAtTheMsrOffset)
{
    TempDir d;
    makeMsrFile(d, 0, 0x1000);
    makeMsrFile(d, 1, 0x1000);
    DevMsr m(d.path());
    EXPECT_EQ(m.cpuCount(), 2u);
    ASSERT_TRUE(m.write(1, msr::IA32_PQR_ASSOC, 0x0000000300000005ULL).ok());
    // In a flat stand-in file neighbouring MSRs overlap (8 bytes at each address), so use one 0x81 away.
    ASSERT_TRUE(m.write(1, msr::IA32_L2_MASK_0, 0x7FF).ok());
    EXPECT_EQ(rawAt(d.path() + "/1/msr", msr::IA32_PQR_ASSOC), 0x0000000300000005ULL);
    EXPECT_EQ(rawAt(d.path() + "/1/msr", msr::IA32_L2_MASK_0), 0x7FFULL);
    auto v = m.read(1, msr::IA32_PQR_ASSOC);
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(*v, 0x0000000300000005ULL);
    EXPECT_EQ(m.read(0, msr::IA32_PQR_ASSOC).value(), 0u); // CPU 0's file was not touched
}

TEST(DevMsr, ShortReadIsEioLikeAGeneralProtectionFault)
{
    TempDir d;
    makeMsrFile(d, 0, 0x100);
    DevMsr m(d.path());
    auto v = m.read(0, msr::IA32_QM_CTR);
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.error().code, EIO);
    EXPECT_NE(v.error().message.find("RDMSR 0xc8e"), std::string::npos);
    EXPECT_NE(v.error().advice.find("#GP"), std::string::npos);
}

TEST(DevMsr, MissingDeviceAdvisesModprobe)
{
    TempDir d;
    DevMsr m(d.path(), 4);
    EXPECT_EQ(m.cpuCount(), 4u);
    auto v = m.read(3, msr::IA32_PQR_ASSOC);
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.error().code, ENOENT);
    EXPECT_NE(v.error().advice.find("modprobe msr"), std::string::npos);
}

TEST(DevMsr, ReadOnlySpaceRefusesWrites)
{
    TempDir d;
    makeMsrFile(d, 0, 0x1000);
    DevMsr m(d.path(), 0, false);
    auto s = m.write(0, msr::IA32_PQR_ASSOC, 1);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, EROFS);
    EXPECT_TRUE(m.read(0, msr::IA32_PQR_ASSOC).ok());
}

TEST(DevMsr, PermissionDeniedAdvisesRoot)
{
    // Root ignores file permissions, so as root the check runs in a child that has dropped to nobody
    // (the same EACCES an unprivileged user gets from /dev/cpu/N/msr).
    TempDir d;
    makeMsrFile(d, 0, 0x1000);
    ::chmod((d.path() + "/0/msr").c_str(), 0);
    ::chmod(d.path().c_str(), 0755);
    ::chmod((d.path() + "/0").c_str(), 0755);
    auto check = [&]() -> std::string {
        DevMsr m(d.path());
        auto v = m.read(0, msr::IA32_PQR_ASSOC);
        if (v.ok()) return "read succeeded";
        if (v.error().code != EACCES) return "error code " + std::to_string(v.error().code);
        if (v.error().advice.find("CAP_SYS_RAWIO") == std::string::npos) return "advice: " + v.error().advice;
        return {};
    };
    if (::geteuid() != 0) {
        EXPECT_EQ(check(), "");
        return;
    }
    int pipeFds[2];
    ASSERT_EQ(::pipe(pipeFds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(pipeFds[0]);
        std::string result = (::setgid(65534) == 0 && ::setuid(65534) == 0) ? check() : "could not drop to nobody";
        if (result.empty()) result = "ok";
        (void)!::write(pipeFds[1], result.data(), result.size());
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    std::string result;
    char buf[256];
    for (ssize_t n; (n = ::read(pipeFds[0], buf, sizeof buf)) > 0;)
        result.append(buf, static_cast<std::size_t>(n));
    ::close(pipeFds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_EQ(result, "ok");
}

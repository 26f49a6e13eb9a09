// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the FUSE tests share: the reason they cannot run here (not root, no /dev/fuse), a private mount namespace
// for the test process, and plain system-call file access (the point is to go through the kernel's VFS).

#include "simfs/FsFuseMount.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <fcntl.h>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <unistd.h>

namespace rdt::simfs::test {

/// Empty when FUSE mounts work here; otherwise why not (the skip reason).
inline std::string fuseUnavailableReason()
{
    auto s = checkFuseAvailable();
    return s ? std::string {} : s.error().toString();
}

/// Moves this test process into its own mount namespace, so its mounts never reach the host (true on success).
inline bool privateMountNamespace()
{
    return ::unshare(CLONE_NEWNS) == 0 && ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0;
}

/// read(2) of a whole file; errno in `err` (0 on success).
inline std::string readFile(const std::string& path, int& err)
{
    err = 0;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        err = errno;
        return {};
    }
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) err = errno;
        if (n <= 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

inline std::string readFile(const std::string& path)
{
    int err = 0;
    std::string s = readFile(path, err);
    EXPECT_EQ(err, 0) << path;
    return s;
}

/// One write(2) of `data`, as `echo data > path`; returns 0 or the errno.
inline int writeFile(const std::string& path, const std::string& data)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) return errno;
    const ssize_t n = ::write(fd, data.data(), data.size());
    const int err = n < 0 ? errno : 0;
    ::close(fd);
    return n == static_cast<ssize_t>(data.size()) ? 0 : (err ? err : EIO);
}

} // namespace rdt::simfs::test

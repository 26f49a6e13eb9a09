// SPDX-License-Identifier: GPL-3.0-or-later
#include "OpenBeneath.h"

#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace rdt {

namespace {

const char* const kNoLinksAdvice = "resctrl has no symbolic links; one in a copied tree could lead outside it or to "
                                   "a device, so it is never followed";
const char* const kRegularAdvice = "resctrl files are regular files: this tree is not a resctrl mount, or was altered";

/// 1: openat2 works, 0: it does not (ENOSYS or a seccomp EPERM), -1: not probed yet.
std::atomic<int> g_openat2 { -1 };

Result<UniqueFd> openat2Dir(int rootFd, const std::vector<std::string>& components, const std::string& shown)
{
#ifdef SYS_openat2
    std::string path;
    for (const auto& c : components)
        path += (path.empty() ? "" : "/") + c;
    open_how how {};
    how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    for (;;) {
        const long fd = ::syscall(SYS_openat2, rootFd, path.c_str(), &how, sizeof how);
        if (fd >= 0) return UniqueFd(static_cast<int>(fd));
        const int err = errno;
        if (err == EINTR || err == EAGAIN) continue; // EAGAIN: a concurrent rename, retry as the man page says
        if (err == ELOOP)
            return errnoError(ELOOP, shown + " is reached through a symbolic link: refused", kNoLinksAdvice);
        if (err == EXDEV) return errnoError(EXDEV, shown + " resolves outside the root: refused", kNoLinksAdvice);
        return errnoError(err, "cannot open directory " + shown);
    }
#else
    (void)rootFd;
    (void)components;
    return errnoError(ENOSYS, "openat2 is not known to this build: " + shown);
#endif
}

Result<UniqueFd> walkDir(int rootFd, const std::vector<std::string>& components, const std::string& shown)
{
    UniqueFd cur(::fcntl(rootFd, F_DUPFD_CLOEXEC, 0));
    if (!cur) return errnoError(errno, "cannot open directory " + shown);
    for (const auto& c : components) {
        struct stat st { };
        if (::fstatat(cur.get(), c.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return errnoError(errno, "cannot open directory " + shown);
        if (S_ISLNK(st.st_mode))
            return errnoError(ELOOP, shown + " is reached through a symbolic link: refused", kNoLinksAdvice);
        if (!S_ISDIR(st.st_mode)) return errnoError(ENOTDIR, shown + ": '" + c + "' is not a directory");
        UniqueFd next(::openat(cur.get(), c.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!next) return errnoError(errno, "cannot open directory " + shown);
        cur = std::move(next);
    }
    return cur;
}

const char* typeName(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

} // namespace

bool kernelHasOpenat2()
{
    int known = g_openat2.load();
    if (known >= 0) return known == 1;
#ifdef SYS_openat2
    open_how how {};
    how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH;
    const long fd = ::syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how);
    known = fd >= 0 ? 1 : (errno == ENOSYS || errno == EPERM ? 0 : 1);
    if (fd >= 0) ::close(static_cast<int>(fd));
#else
    known = 0;
#endif
    g_openat2.store(known);
    return known == 1;
}

Result<UniqueFd> openDirBeneath(
    int rootFd, const std::vector<std::string>& components, BeneathResolution how, const std::string& shown)
{
    if (how == BeneathResolution::Automatic && !components.empty() && kernelHasOpenat2())
        return openat2Dir(rootFd, components, shown);
    return walkDir(rootFd, components, shown);
}

Result<UniqueFd> openRegularAt(int dirFd, const std::string& name, int flags, const std::string& shown)
{
    const bool writing = (flags & O_ACCMODE) != O_RDONLY;
    const std::string verb = writing ? "cannot open " + shown + " for writing" : "cannot open " + shown;
    struct stat before { };
    if (::fstatat(dirFd, name.c_str(), &before, AT_SYMLINK_NOFOLLOW) != 0) return errnoError(errno, verb);
    if (S_ISLNK(before.st_mode)) return errnoError(ELOOP, shown + " is a symbolic link: refused", kNoLinksAdvice);
    if (S_ISDIR(before.st_mode)) return errnoError(EISDIR, shown + " is a directory, not a file", kRegularAdvice);
    if (!S_ISREG(before.st_mode))
        return errnoError(
            EINVAL, shown + " is " + typeName(before.st_mode) + ", not a regular file: refused", kRegularAdvice);
    // O_NONBLOCK: should the entry become a FIFO between the check and the open, the open does not wait for a
    // peer. Regular files ignore the flag.
    UniqueFd fd(::openat(dirFd, name.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd) return errnoError(errno, verb);
    struct stat after { };
    if (::fstat(fd.get(), &after) != 0) return errnoError(errno, verb);
    if (!S_ISREG(after.st_mode) || after.st_ino != before.st_ino || after.st_dev != before.st_dev)
        return errnoError(EAGAIN, shown + " was replaced while it was being opened: refused", kRegularAdvice);
    return fd;
}

Result<std::string> readBounded(int fd, std::size_t limit, const std::string& shown)
{
    std::string out;
    char buf[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errnoError(errno, "cannot read " + shown);
        }
        if (n == 0) return out;
        if (out.size() + static_cast<std::size_t>(n) > limit)
            return errnoError(EFBIG, shown + " is larger than " + std::to_string(limit) + " bytes: refused",
                "no resctrl file is this large; is this a resctrl tree?");
        out.append(buf, static_cast<std::size_t>(n));
    }
}

} // namespace rdt

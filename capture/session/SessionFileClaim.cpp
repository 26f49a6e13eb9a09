// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionFileClaim.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt::session {

namespace {

const char* kindOf(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}

Error busy(const std::string& path)
{
    return makeError("another rdtscope is writing " + path + " (it holds the file's lock)",
        "stop that recording first, or choose another name");
}

/// Removes the old session at `path` (a regular file, checked by the caller) and its SQLite sidecars, but only
/// while holding its lock, so a recorder still writing it is never robbed of its file.
Status removeOldSession(const std::string& path)
{
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd) return errnoError(errno, "cannot open " + path + " to replace it");
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0)
        return errno == EWOULDBLOCK ? Status(busy(path)) : Status(errnoError(errno, "cannot lock " + path));
    for (const char* suffix : { "-wal", "-shm", "-journal", "" }) {
        const std::string p = path + suffix;
        struct stat st { };
        if (::lstat(p.c_str(), &st) != 0) continue;
        if (!S_ISREG(st.st_mode)) continue; // a sidecar name we did not make: leave it to SQLite to complain
        if (::unlink(p.c_str()) != 0 && errno != ENOENT) return errnoError(errno, "cannot remove " + p);
    }
    return {};
}

} // namespace

Result<SessionFileClaim> SessionFileClaim::take(const std::string& path, bool overwrite)
{
    if (path.empty()) return makeError("no session file name given", "pass -o FILE");
    struct stat st { };
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return makeError(path + " is " + kindOf(st.st_mode)
                    + "; rdtscope writes sessions only to regular files "
                      "and never replaces anything else, --force or not",
                "choose a file name in a directory you can write");
        if (!overwrite) return errnoError(EEXIST, "will not overwrite " + path, "choose another name, or pass --force");
        if (auto s = removeOldSession(path); !s) return s.error();
    } else if (errno != ENOENT) {
        return errnoError(errno, "cannot look at " + path);
    }
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == EEXIST) return busy(path); // another writer created it between our check and our create
        return errnoError(errno, "cannot create " + path);
    }
    SessionFileClaim claim(fd);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
        return errno == EWOULDBLOCK ? busy(path) : errnoError(errno, "cannot lock " + path);
    return claim;
}

} // namespace rdt::session

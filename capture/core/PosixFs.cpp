// SPDX-License-Identifier: GPL-3.0-or-later
#include "PosixFs.h"

#include "FsPath.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt {

namespace {
/// More entries than any resctrl directory has (groups are bounded by CLOSIDs and RMIDs): a listing beyond this
/// is refused rather than held in memory.
constexpr std::size_t kMaxEntries = 65536;
}

PosixFs::PosixFs(std::string root, BeneathResolution resolution)
    : m_root(std::move(root))
    , m_resolution(resolution)
{
    while (m_root.size() > 1 && m_root.back() == '/')
        m_root.pop_back();
    m_rootFd = UniqueFd(::open(m_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!m_rootFd) m_rootErrno = errno;
}

std::string PosixFs::shown(const std::string& path) const
{
    if (path.empty() || path == ".") return m_root;
    std::string s = m_root + "/";
    for (char c : path.substr(0, 200))
        s += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    return s;
}

Result<PosixFs::Parent> PosixFs::parentOf(const std::string& path)
{
    auto parts = splitBeneath(path);
    if (!parts) return parts.error();
    if (parts->empty()) return errnoError(EISDIR, m_root + " is the root directory, not an entry in it");
    if (!m_rootFd) return errnoError(m_rootErrno, "cannot open " + m_root);
    Parent p;
    p.name = std::move(parts->back());
    parts->pop_back();
    auto dir = openDirBeneath(m_rootFd.get(), *parts, m_resolution, shown(path));
    if (!dir) return dir.error();
    p.dir = std::move(*dir);
    return p;
}

Result<UniqueFd> PosixFs::openFile(const std::string& path, int flags)
{
    auto p = parentOf(path);
    if (!p) return p.error();
    return openRegularAt(p->dir.get(), p->name, flags, shown(path));
}

Result<std::string> PosixFs::read(const std::string& path)
{
    auto fd = openFile(path, O_RDONLY);
    if (!fd) return fd.error();
    const auto slash = path.rfind('/');
    return readBounded(
        fd->get(), readLimitFor(slash == std::string::npos ? path : path.substr(slash + 1)), shown(path));
}

Status PosixFs::write(const std::string& path, const std::string& data)
{
    // O_TRUNC keeps fixture trees (plain files) behaving like sysfs, where a write replaces the value.
    auto fd = openFile(path, O_WRONLY | O_TRUNC);
    if (!fd) return fd.error();
    ssize_t n;
    do
        n = ::write(fd->get(), data.data(), data.size());
    while (n < 0 && errno == EINTR);
    if (n < 0) return errnoError(errno, "write to " + shown(path) + " failed");
    if (static_cast<std::size_t>(n) != data.size())
        return makeError("short write to " + shown(path), "the kernel accepted only part of the command");
    return {};
}

Status PosixFs::mkdir(const std::string& path)
{
    auto p = parentOf(path);
    if (!p) return p.error();
    if (::mkdirat(p->dir.get(), p->name.c_str(), 0755) != 0) return errnoError(errno, "cannot create " + shown(path));
    return {};
}

Status PosixFs::rmdir(const std::string& path)
{
    auto p = parentOf(path);
    if (!p) return p.error();
    // unlinkat never follows a link: a symbolic link named like a group fails with ENOTDIR.
    if (::unlinkat(p->dir.get(), p->name.c_str(), AT_REMOVEDIR) != 0)
        return errnoError(errno, "cannot remove " + shown(path));
    return {};
}

Result<std::vector<std::string>> PosixFs::list(const std::string& path)
{
    auto parts = splitBeneath(path);
    if (!parts) return parts.error();
    if (!m_rootFd) return errnoError(m_rootErrno, "cannot open " + m_root);
    auto dir = openDirBeneath(m_rootFd.get(), *parts, m_resolution, shown(path));
    if (!dir) return dir.error();
    const int readable = ::openat(dir->get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (readable < 0) return errnoError(errno, "cannot list " + shown(path));
    DIR* d = ::fdopendir(readable);
    if (!d) {
        const int err = errno;
        ::close(readable);
        return errnoError(err, "cannot list " + shown(path));
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        if (names.size() >= kMaxEntries) {
            ::closedir(d);
            return errnoError(E2BIG, shown(path) + " has more than " + std::to_string(kMaxEntries) + " entries",
                "no resctrl directory is this large; is this a resctrl tree?");
        }
        names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

bool PosixFs::exists(const std::string& path)
{
    if (path.empty() || path == ".") return static_cast<bool>(m_rootFd);
    auto p = parentOf(path);
    struct stat st { };
    return p && ::fstatat(p->dir.get(), p->name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

bool PosixFs::isDirectory(const std::string& path)
{
    if (path.empty() || path == ".") return static_cast<bool>(m_rootFd);
    auto p = parentOf(path);
    struct stat st { };
    return p && ::fstatat(p->dir.get(), p->name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

Result<UniqueFd> PosixFs::openForPolling(const std::string& path)
{
    return openFile(path, O_RDONLY);
}

bool PosixFs::taskExists(unsigned pid)
{
    struct stat st { };
    return pid != 0 && ::stat(("/proc/" + std::to_string(pid)).c_str(), &st) == 0;
}

Status PosixFs::lock(bool exclusive)
{
    if (!m_rootFd) return errnoError(m_rootErrno, "cannot open " + m_root + " to lock it");
    while (::flock(m_rootFd.get(), exclusive ? LOCK_EX : LOCK_SH) != 0) {
        if (errno != EINTR) return errnoError(errno, "cannot lock " + m_root);
    }
    return {};
}

void PosixFs::unlock()
{
    if (m_rootFd) ::flock(m_rootFd.get(), LOCK_UN);
}

} // namespace rdt

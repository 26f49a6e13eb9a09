// SPDX-License-Identifier: GPL-3.0-or-later
#include "PosixFs.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt {

PosixFs::PosixFs(std::string root)
    : m_root(std::move(root))
{
    while (m_root.size() > 1 && m_root.back() == '/')
        m_root.pop_back();
}

std::string PosixFs::full(const std::string& path) const
{
    if (path.empty() || path == ".") return m_root;
    return m_root + "/" + path;
}

Result<std::string> PosixFs::read(const std::string& path)
{
    const auto p = full(path);
    UniqueFd fd(::open(p.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) return errnoError(errno, "cannot open " + p);
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errnoError(errno, "cannot read " + p);
        }
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
}

Status PosixFs::write(const std::string& path, const std::string& data)
{
    const auto p = full(path);
    // O_TRUNC keeps fixture trees (plain files) behaving like sysfs, where a write replaces the value.
    UniqueFd fd(::open(p.c_str(), O_WRONLY | O_CLOEXEC | O_TRUNC));
    if (!fd) return errnoError(errno, "cannot open " + p + " for writing");
    const ssize_t n = ::write(fd.get(), data.data(), data.size());
    if (n < 0) return errnoError(errno, "write to " + p + " failed");
    if (static_cast<std::size_t>(n) != data.size())
        return makeError("short write to " + p, "the kernel accepted only part of the command");
    return {};
}

Status PosixFs::mkdir(const std::string& path)
{
    const auto p = full(path);
    if (::mkdir(p.c_str(), 0755) != 0) return errnoError(errno, "cannot create " + p);
    return {};
}

Status PosixFs::rmdir(const std::string& path)
{
    const auto p = full(path);
    if (::rmdir(p.c_str()) != 0) return errnoError(errno, "cannot remove " + p);
    return {};
}

Result<std::vector<std::string>> PosixFs::list(const std::string& path)
{
    const auto p = full(path);
    DIR* d = ::opendir(p.c_str());
    if (!d) return errnoError(errno, "cannot list " + p);
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

bool PosixFs::exists(const std::string& path)
{
    struct stat st { };
    return ::stat(full(path).c_str(), &st) == 0;
}

bool PosixFs::isDirectory(const std::string& path)
{
    struct stat st { };
    return ::stat(full(path).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool PosixFs::taskExists(unsigned pid)
{
    struct stat st { };
    return pid != 0 && ::stat(("/proc/" + std::to_string(pid)).c_str(), &st) == 0;
}

Status PosixFs::lock(bool exclusive)
{
    if (!m_lockFd) {
        m_lockFd = UniqueFd(::open(m_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!m_lockFd) return errnoError(errno, "cannot open " + m_root + " to lock it");
    }
    while (::flock(m_lockFd.get(), exclusive ? LOCK_EX : LOCK_SH) != 0) {
        if (errno != EINTR) return errnoError(errno, "cannot lock " + m_root);
    }
    return {};
}

void PosixFs::unlock()
{
    if (m_lockFd) ::flock(m_lockFd.get(), LOCK_UN);
}

} // namespace rdt

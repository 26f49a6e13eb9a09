// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlNamespace.h"

#include "core/Error.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt::simfs {
namespace {

Status mountError(const std::string& what)
{
    const int e = errno;
    return errnoError(
        e, "cannot " + what, e == EPERM ? "mount namespaces need root (CAP_SYS_ADMIN); run with sudo" : std::string {});
}

Status writeFile(const std::string& path, const std::string& content)
{
    std::ofstream out(path, std::ios::binary);
    out << content;
    out.close();
    if (!out) return errnoError(EIO, "cannot write " + path);
    return {};
}

/// Makes every directory of `path` below `root` (root itself exists).
Status makeParents(const std::string& root, const std::string& path)
{
    for (std::size_t at = path.find('/'); at != std::string::npos; at = path.find('/', at + 1)) {
        const std::string dir = root + "/" + path.substr(0, at);
        if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return mountError("create " + dir);
    }
    return {};
}

} // namespace

Result<std::string> filesystemsWithResctrl()
{
    std::ifstream in("/proc/filesystems");
    if (!in) return errnoError(errno, "cannot read /proc/filesystems");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    if (text.find("\tresctrl\n") == std::string::npos) text += "nodev\tresctrl\n";
    return text;
}

Status ResctrlNamespace::enter(const std::vector<FileOverlay>& files, const std::vector<TreeOverlay>& trees)
{
    if (::unshare(CLONE_NEWNS) != 0) return mountError("create a private mount namespace (unshare CLONE_NEWNS)");
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return mountError("make the namespace's mounts private");
    if (::mount("tmpfs", "/sys/fs", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=4m") != 0)
        return mountError("mount a tmpfs over /sys/fs");
    // Lock files RDT tools take for the real hardware (pqos: /var/lock/libpqos) belong to the simulated machine:
    // a private tmpfs over the lock directory keeps them, and nothing the command locks touches the host's.
    if (char* lockDir = ::realpath("/var/lock", nullptr)) {
        const std::string dir = lockDir;
        std::free(lockDir);
        if (::mount("tmpfs", dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777,size=1m") != 0)
            return mountError("mount a private tmpfs over " + dir);
    }
    if (::mkdir(kMountpoint, 0755) != 0) return mountError(std::string("create ") + kMountpoint);
    int n = 0;
    for (const auto& o : files) {
        // The content lives in a file of the tmpfs only until it is bound: the bind mount keeps the inode.
        const std::string source = "/sys/fs/.overlay-" + std::to_string(n++);
        if (auto s = writeFile(source, o.content); !s) return s;
        if (::mount(source.c_str(), o.target.c_str(), nullptr, MS_BIND, nullptr) != 0)
            return mountError("bind-mount the simulated " + o.target);
        (void)::unlink(source.c_str());
    }
    for (const auto& t : trees) {
        if (::mount("tmpfs", t.target.c_str(), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=1m") != 0)
            return mountError("mount the simulated " + t.target);
        for (const auto& [path, content] : t.files) {
            if (auto s = makeParents(t.target, path); !s) return s;
            if (!path.empty() && path.back() == '/') continue; // a directory, made above
            if (auto s = writeFile(t.target + "/" + path, content); !s) return s;
        }
    }
    return {};
}

} // namespace rdt::simfs

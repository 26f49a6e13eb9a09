// SPDX-License-Identifier: GPL-3.0-or-later
#include "UnixSocket.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <grp.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace rdt::protocol {

namespace {
Result<sockaddr_un> address(const std::string& path)
{
    sockaddr_un a {};
    a.sun_family = AF_UNIX;
    if (path.empty() || path.size() >= sizeof a.sun_path)
        return makeError("the socket path '" + path + "' is empty or longer than "
            + std::to_string(sizeof a.sun_path - 1) + " bytes");
    std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
    return a;
}

bool somethingListens(const sockaddr_un& a)
{
    UniqueFd probe(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    return probe && ::connect(probe.get(), reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
}
}

Result<UniqueFd> listenUnix(const std::string& path, gid_t gid)
{
    auto a = address(path);
    if (!a) return a.error();
    struct stat st { };
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode))
            return makeError(path + " exists and is not a socket", "remove it or choose another path");
        if (somethingListens(*a)) return makeError("another agent already listens on " + path);
        ::unlink(path.c_str());
    }
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) return errnoError(errno, "cannot create a unix socket");
    // Created with no permissions for anyone, then opened to owner and group: no window where others connect.
    const mode_t old = ::umask(0777);
    const int rc = ::bind(fd.get(), reinterpret_cast<const sockaddr*>(&*a), sizeof *a);
    const int bindErr = errno;
    ::umask(old);
    if (rc != 0) return errnoError(bindErr, "cannot bind " + path);
    if (gid != static_cast<gid_t>(-1) && ::chown(path.c_str(), static_cast<uid_t>(-1), gid) != 0)
        return errnoError(errno, "cannot give " + path + " to group " + std::to_string(gid));
    if (::chmod(path.c_str(), 0660) != 0) return errnoError(errno, "cannot set mode 0660 on " + path);
    if (::listen(fd.get(), 64) != 0) return errnoError(errno, "cannot listen on " + path);
    return fd;
}

Result<UniqueFd> connectUnix(const std::string& path)
{
    auto a = address(path);
    if (!a) return a.error();
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) return errnoError(errno, "cannot create a unix socket");
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&*a), sizeof *a) != 0) {
        const int e = errno;
        if (e == ENOENT || e == ECONNREFUSED)
            return errnoError(e, "no agent listens on " + path,
                "start it: systemctl start rdtscope-agent.socket (or rdtscope-agent --listen unix:" + path + ")");
        if (e == EACCES || e == EPERM)
            return errnoError(e, "not allowed to connect to " + path,
                "the socket is for members of its group: sudo usermod -aG rdtscope $USER, then log in again");
        return errnoError(e, "cannot connect to " + path);
    }
    return fd;
}

Result<PeerCredentials> peerCredentials(int fd)
{
    ucred cred {};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
        return errnoError(errno, "cannot read the peer's credentials (SO_PEERCRED)");
    PeerCredentials p;
    p.pid = cred.pid;
    p.uid = cred.uid;
    p.gid = cred.gid;
    std::vector<gid_t> groups(64);
    socklen_t glen = static_cast<socklen_t>(groups.size() * sizeof(gid_t));
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups.data(), &glen) != 0 && errno == ERANGE) {
        groups.resize(glen / sizeof(gid_t) + 1);
        glen = static_cast<socklen_t>(groups.size() * sizeof(gid_t));
        if (::getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups.data(), &glen) != 0) glen = 0;
    }
    groups.resize(glen / sizeof(gid_t));
    p.groups = std::move(groups);
    passwd pw {};
    passwd* res = nullptr;
    char buf[4096];
    p.userName = ::getpwuid_r(p.uid, &pw, buf, sizeof buf, &res) == 0 && res ? res->pw_name : std::to_string(p.uid);
    return p;
}

Result<gid_t> lookupGroup(const std::string& name)
{
    group gr {};
    group* res = nullptr;
    std::vector<char> buf(16384);
    if (::getgrnam_r(name.c_str(), &gr, buf.data(), buf.size(), &res) != 0 || !res)
        return makeError("there is no group '" + name + "'",
            "create it (sudo groupadd --system " + name + ") and add the users who may monitor");
    return res->gr_gid;
}

Status checkPeer(const PeerCredentials& peer, gid_t allowed, const std::string& allowedName)
{
    if (peer.uid == 0 || peer.gid == allowed
        || std::find(peer.groups.begin(), peer.groups.end(), allowed) != peer.groups.end())
        return {};
    return makeError("user " + peer.userName + " (uid " + std::to_string(peer.uid) + ") is not in group '" + allowedName
            + "', which this agent serves",
        "ask an administrator: sudo usermod -aG " + allowedName + " " + peer.userName + " (then log in again)");
}

} // namespace rdt::protocol

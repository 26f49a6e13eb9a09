// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/UniqueFd.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace rdt::protocol {

/// Creates a listening unix stream socket at `path` with mode 0660 and group `gid` (or the caller's group when
/// gid is -1). An existing socket file is replaced only when nothing listens on it; any other file is kept.
Result<UniqueFd> listenUnix(const std::string& path, gid_t gid);

/// Connects to a unix socket, with an error that tells a missing agent from a permission problem.
Result<UniqueFd> connectUnix(const std::string& path);

/// Who is on the other end of a unix socket (SO_PEERCRED, SO_PEERGROUPS).
struct PeerCredentials {
    pid_t pid = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    std::vector<gid_t> groups; ///< supplementary groups at connect time
    std::string userName; ///< from the passwd database, or the number
};

Result<PeerCredentials> peerCredentials(int fd);

/// The allowed group by name, or an Error naming it (with advice to create it).
Result<gid_t> lookupGroup(const std::string& name);

/// Root, or a member of `allowed` (primary or supplementary): may connect. Otherwise the refusal text.
Status checkPeer(const PeerCredentials& peer, gid_t allowed, const std::string& allowedName);

} // namespace rdt::protocol

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"
#include "UniqueFd.h"

#include <string>
#include <vector>

namespace rdt {

/// How a path below a root directory is resolved.
enum class BeneathResolution {
    /// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS where the kernel has it
    /// (Linux 5.6+), the component walk where it does not (ENOSYS, or EPERM from a seccomp filter).
    Automatic,
    /// One openat(2) per component with O_NOFOLLOW, each checked to be a directory first.
    ComponentWalk,
};

/// Whether this kernel answers openat2(2) (probed once).
bool kernelHasOpenat2();

/// Opens the directory named by `components` below `rootFd` (no components: a duplicate of rootFd) as an O_PATH
/// descriptor, following no symbolic link on the way; `shown` names the path in messages. ELOOP when a
/// component is a symbolic link, ENOTDIR when one is not a directory.
Result<UniqueFd> openDirBeneath(
    int rootFd, const std::vector<std::string>& components, BeneathResolution how, const std::string& shown);

/// Opens `name` in directory `dirFd` with `flags` (O_RDONLY, O_WRONLY | O_TRUNC ...) only if it is a regular
/// file: never through a symbolic link, never blocking on a FIFO, never opening a device. The type is checked
/// before the open (fstatat, AT_SYMLINK_NOFOLLOW) and the opened file is checked to be that same inode.
Result<UniqueFd> openRegularAt(int dirFd, const std::string& name, int flags, const std::string& shown);

/// Reads a whole regular file from the start, refusing (EFBIG) one larger than `limit` bytes.
Result<std::string> readBounded(int fd, std::size_t limit, const std::string& shown);

} // namespace rdt

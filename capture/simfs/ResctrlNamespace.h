// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>
#include <utility>
#include <vector>

namespace rdt::simfs {

/// A file of the host shown with other content inside the namespace (bind-mounted over it).
struct FileOverlay {
    std::string target; ///< e.g. /proc/filesystems
    std::string content;
};

/// A directory of the host replaced inside the namespace by a tmpfs holding these files (paths relative to the
/// directory; parent directories are made; a path ending in '/' is an empty directory).
struct TreeOverlay {
    std::string target; ///< e.g. /sys/devices/system/cpu/cpu0
    std::vector<std::pair<std::string, std::string>> files; ///< (relative path, content)
};

/// Moves the calling process into a private mount namespace (unshare(CLONE_NEWNS), every mount private so nothing
/// propagates back) where a tmpfs covers /sys/fs and holds an empty /sys/fs/resctrl to mount on, and where each
/// file overlay's content is bind-mounted over its target and each tree overlay's tmpfs covers its directory. Whatever
/// the process mounts there disappears with the namespace when it and its children exit; the host's mounts are never
/// touched. Needs CAP_SYS_ADMIN. The tmpfs hides the rest of /sys/fs (cgroup, bpf, ...) from the commands run inside.
class ResctrlNamespace {
public:
    static constexpr const char* kMountpoint = "/sys/fs/resctrl";
    static Status enter(const std::vector<FileOverlay>& files, const std::vector<TreeOverlay>& trees = {});
};

/// /proc/filesystems as the host has it plus "nodev\tresctrl": what tools read to decide that the kernel has
/// resctrl (Documentation/filesystems/resctrl.rst asks for `mount -t resctrl`, which needs this entry).
Result<std::string> filesystemsWithResctrl();

} // namespace rdt::simfs

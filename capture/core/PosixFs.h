// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Fs.h"
#include "OpenBeneath.h"
#include "UniqueFd.h"

namespace rdt {

/// Fs over real files below a root directory (/sys/fs/resctrl, or a fixture tree copied into a temp dir),
/// confined to it: paths go through splitBeneath, directories are opened from a descriptor of the root without
/// following symbolic links (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, or an
/// O_NOFOLLOW component walk), files are opened only when they are regular files, reads are bounded, and
/// mkdir/rmdir act on one name inside an already opened parent. The root path itself may be a link.
class PosixFs final : public Fs {
public:
    explicit PosixFs(std::string root, BeneathResolution resolution = BeneathResolution::Automatic);

    Result<std::string> read(const std::string& path) override;
    Status write(const std::string& path, const std::string& data) override;
    Status mkdir(const std::string& path) override;
    Status rmdir(const std::string& path) override;
    Result<std::vector<std::string>> list(const std::string& path) override;
    bool exists(const std::string& path) override;
    bool isDirectory(const std::string& path) override;
    Result<UniqueFd> openForPolling(const std::string& path) override;
    bool taskExists(unsigned pid) override;
    Status lock(bool exclusive) override;
    void unlock() override;
    std::string describe() const override { return m_root; }

    const std::string& root() const { return m_root; }

private:
    /// The parent directory of `path` (opened beneath the root) and the last component's name.
    struct Parent {
        UniqueFd dir;
        std::string name;
    };
    Result<Parent> parentOf(const std::string& path);
    Result<UniqueFd> openFile(const std::string& path, int flags);
    std::string shown(const std::string& path) const;

    std::string m_root;
    BeneathResolution m_resolution;
    UniqueFd m_rootFd; ///< O_RDONLY | O_DIRECTORY: the anchor of every lookup, and what flock() locks
    int m_rootErrno = 0; ///< why m_rootFd could not be opened
};

} // namespace rdt

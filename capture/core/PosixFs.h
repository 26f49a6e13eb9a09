// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Fs.h"
#include "UniqueFd.h"

namespace rdt {

/// Fs over real files below a root directory (/sys/fs/resctrl, or a fixture tree copied into a temp dir).
class PosixFs final : public Fs {
public:
    explicit PosixFs(std::string root);

    Result<std::string> read(const std::string& path) override;
    Status write(const std::string& path, const std::string& data) override;
    Status mkdir(const std::string& path) override;
    Status rmdir(const std::string& path) override;
    Result<std::vector<std::string>> list(const std::string& path) override;
    bool exists(const std::string& path) override;
    bool isDirectory(const std::string& path) override;
    bool taskExists(unsigned pid) override;
    Status lock(bool exclusive) override;
    void unlock() override;
    std::string describe() const override { return m_root; }

    const std::string& root() const { return m_root; }

private:
    std::string full(const std::string& path) const;

    std::string m_root;
    UniqueFd m_lockFd;
};

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace rdt::test {

/// A temporary directory removed with everything in it when the object goes away.
class TempDir {
public:
    TempDir()
    {
        std::string templ = (std::filesystem::temp_directory_path() / "rdtscope-platform-XXXXXX").string();
        if (char* p = ::mkdtemp(templ.data())) m_path = p;
    }
    ~TempDir()
    {
        std::error_code ec;
        if (!m_path.empty()) std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return m_path; }

    /// Writes `content` to path (relative to the directory), creating parent directories.
    void write(const std::string& relative, const std::string& content) const
    {
        const std::filesystem::path p = std::filesystem::path(m_path) / relative;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary | std::ios::trunc) << content;
    }
    void mkdir(const std::string& relative) const
    {
        std::filesystem::create_directories(std::filesystem::path(m_path) / relative);
    }

private:
    std::string m_path;
};

} // namespace rdt::test

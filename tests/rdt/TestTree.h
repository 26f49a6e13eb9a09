// SPDX-License-Identifier: GPL-3.0-or-later
// Test helpers: temp copies of the resctrl fixture trees and an Fs wrapper that injects write failures.
#pragma once

#include "core/Fs.h"
#include "core/PosixFs.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace rdt::test {

inline const char* kFixtureTrees[]
    = { "resctrl.full", "resctrl.l2", "resctrl.l2cdp", "resctrl.nol3", "resctrl.nol3.mbps", "resctrl.nomb" };

/// A fixture tree copied into a fresh temp dir (the originals stay untouched); removed on destruction.
class TempTree {
public:
    explicit TempTree(const std::string& fixture)
    {
        // tmpfs when there is one: copying a few hundred small files to a loaded disk is slow.
        std::string templ
            = std::filesystem::is_directory("/dev/shm") ? "/dev/shm/rdt-test-XXXXXX" : "/tmp/rdt-test-XXXXXX";
        m_dir = ::mkdtemp(templ.data());
        m_root = m_dir + "/" + fixture;
        std::filesystem::copy(
            std::string(RDTSCOPE_TEST_DATA) + "/resctrl/" + fixture, m_root, std::filesystem::copy_options::recursive);
        // The fixtures are read-only in git checkouts of some CIs; a copy must be writable like sysfs files are.
        for (const auto& e : std::filesystem::recursive_directory_iterator(m_root))
            std::filesystem::permissions(
                e.path(), std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    }
    ~TempTree()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }
    TempTree(const TempTree&) = delete;
    TempTree& operator=(const TempTree&) = delete;

    const std::string& root() const { return m_root; }
    /// The temp dir that holds the tree: outside the tree, for sentinels nothing may touch.
    const std::string& dir() const { return m_dir; }
    void write(const std::string& rel, const std::string& text) const
    {
        std::filesystem::create_directories(std::filesystem::path(m_root + "/" + rel).parent_path());
        std::ofstream(m_root + "/" + rel, std::ios::trunc) << text;
    }
    std::string read(const std::string& rel) const
    {
        std::ifstream in(m_root + "/" + rel);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }

private:
    std::string m_dir;
    std::string m_root;
};

/// Delegates to an inner Fs; the Nth write (1-based, counting from arm()) fails with `code`, optionally
/// writing `status` into info/last_cmd_status the way the kernel does.
class FaultyFs : public Fs {
public:
    explicit FaultyFs(std::shared_ptr<Fs> inner)
        : m_inner(std::move(inner))
    { }
    void arm(int failOnWrite, int code = EINVAL, std::string status = {})
    {
        m_writes = 0;
        m_failOn = failOnWrite;
        m_code = code;
        m_status = std::move(status);
    }
    int writes() const { return m_writes; }
    /// The Nth read (1-based, counting from here) fails with EIO; info/last_cmd_status reads are not counted.
    void armRead(int failOnRead)
    {
        m_reads = 0;
        m_failReadOn = failOnRead;
    }
    int reads() const { return m_reads; }

    Result<std::string> read(const std::string& p) override
    {
        if (p != "info/last_cmd_status" && ++m_reads == m_failReadOn)
            return errnoError(EIO, "injected read failure on " + p);
        return m_inner->read(p);
    }
    Status write(const std::string& p, const std::string& data) override
    {
        if (m_swallow) return {};
        if (p != "info/last_cmd_status") {
            if (m_locks == 0) ++m_unlockedWrites;
            if (m_onWrite) m_onWrite(p);
        }
        if (p != "info/last_cmd_status" && ++m_writes == m_failOn) {
            if (!m_status.empty()) (void)m_inner->write("info/last_cmd_status", m_status + "\n");
            // m_writeThenFail: the write reached the kernel, then the call reported a failure (as a write whose
            // read-back differs does): the rollback must include this step.
            if (m_writeThenFail) (void)m_inner->write(p, data);
            return errnoError(m_code, "write to " + p + " failed");
        }
        return m_inner->write(p, data);
    }
    Status mkdir(const std::string& p) override
    {
        if (m_mkdirCode) return errnoError(m_mkdirCode, "cannot create " + p);
        return m_inner->mkdir(p);
    }
    Status rmdir(const std::string& p) override
    {
        if (m_rmdirCode) return errnoError(m_rmdirCode, "cannot remove " + p);
        return m_inner->rmdir(p);
    }
    Result<std::vector<std::string>> list(const std::string& p) override { return m_inner->list(p); }
    bool exists(const std::string& p) override { return m_inner->exists(p); }
    bool isDirectory(const std::string& p) override { return m_inner->isDirectory(p); }
    Result<UniqueFd> openForPolling(const std::string& p) override { return m_inner->openForPolling(p); }
    bool taskExists(unsigned pid) override { return m_inner->taskExists(pid); }
    Status lock(bool exclusive) override
    {
        auto l = m_inner->lock(exclusive);
        if (l) ++m_locks;
        return l;
    }
    void unlock() override
    {
        --m_locks;
        m_inner->unlock();
    }
    std::string describe() const override { return m_inner->describe(); }

    int m_mkdirCode = 0; ///< mkdir fails with this errno when non-zero
    int m_rmdirCode = 0; ///< rmdir fails with this errno when non-zero
    bool m_swallow = false; ///< writes "succeed" and change nothing
    bool m_writeThenFail = false; ///< the failing write is carried out before the failure is returned
    int m_unlockedWrites = 0; ///< writes made while the root lock was not held
    std::function<void(const std::string&)> m_onWrite; ///< called before every write

private:
    std::shared_ptr<Fs> m_inner;
    int m_writes = 0;
    int m_failOn = 0;
    int m_reads = 0;
    int m_failReadOn = 0;
    int m_locks = 0;
    int m_code = EINVAL;
    std::string m_status;
};

/// The schemata files of the `resctrl.full` fixture tree's control groups, by path, as `tree` holds them now.
inline std::map<std::string, std::string> fullTreeSchemata(const TempTree& tree)
{
    std::map<std::string, std::string> out;
    for (const char* f : { "schemata", "Guaranteed/schemata", "non_goresctrl.Group/schemata",
             "goresctrl.Guaranteed/schemata", "goresctrl.Stale/schemata" })
        out[f] = tree.read(f);
    return out;
}

} // namespace rdt::test

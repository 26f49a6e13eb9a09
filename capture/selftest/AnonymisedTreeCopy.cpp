// SPDX-License-Identifier: GPL-3.0-or-later
// Which files a resctrl group holds: Documentation/filesystems/resctrl.rst "Resource alloc and monitor groups".
#include "AnonymisedTreeCopy.h"

#include <filesystem>
#include <fstream>

namespace rdt::selftest {

namespace {

namespace fsys = std::filesystem;

/// Copies one tree of `fs` (files and sub-directories, recursively), leaving out `tasks` files.
class Copier {
public:
    Copier(Fs& fs, fsys::path out)
        : m_fs(fs)
        , m_out(std::move(out))
    { }
    unsigned files = 0;

    Status file(const std::string& from, const std::string& to)
    {
        auto text = m_fs.read(from);
        if (!text) return {}; // a write-only or vanished file: nothing to copy
        const fsys::path target = m_out / to;
        std::error_code ec;
        fsys::create_directories(target.parent_path(), ec);
        std::ofstream out(target, std::ios::binary);
        out << *text;
        if (!out) return errnoError(EIO, "cannot write " + target.string());
        ++files;
        return {};
    }
    Status tree(const std::string& from, const std::string& to)
    {
        std::error_code ec;
        fsys::create_directories(m_out / to, ec);
        if (ec) return errnoError(ec.value(), "cannot make " + (m_out / to).string());
        auto entries = m_fs.list(from);
        if (!entries) return entries.error();
        for (const auto& e : *entries) {
            if (e == "tasks") continue;
            const std::string src = from + "/" + e, dst = to + "/" + e;
            auto s = m_fs.isDirectory(src) ? tree(src, dst) : file(src, dst);
            if (!s) return s;
        }
        return {};
    }
    /// A group's own files (not its sub-groups): what allocation and monitoring read.
    Status group(const std::string& from, const std::string& to)
    {
        std::error_code ec;
        fsys::create_directories(m_out / to, ec);
        for (const char* f : { "schemata", "cpus", "cpus_list", "mode", "size" }) {
            const std::string src = from.empty() ? f : from + "/" + f;
            if (m_fs.exists(src))
                if (auto s = file(src, (to.empty() ? "" : to + "/") + f); !s) return s;
        }
        const std::string monData = from.empty() ? "mon_data" : from + "/mon_data";
        if (m_fs.isDirectory(monData)) return tree(monData, (to.empty() ? "" : to + "/") + "mon_data");
        return {};
    }
    /// The monitor groups under `from`'s mon_groups, renamed monN (N counts over the whole tree).
    Status monitorGroups(const std::string& from, const std::string& to, unsigned& next)
    {
        const std::string dir = from.empty() ? "mon_groups" : from + "/mon_groups";
        const std::string out = to.empty() ? "mon_groups" : to + "/mon_groups";
        std::error_code ec;
        fsys::create_directories(m_out / out, ec);
        auto entries = m_fs.list(dir);
        if (!entries) return {};
        for (const auto& m : *entries)
            if (m_fs.isDirectory(dir + "/" + m))
                if (auto s = group(dir + "/" + m, out + "/mon" + std::to_string(++next)); !s) return s;
        return {};
    }

private:
    Fs& m_fs;
    fsys::path m_out;
};

} // namespace

Result<unsigned> AnonymisedTreeCopy::save(Fs& fs, const std::string& dir)
{
    std::error_code ec;
    if (fsys::exists(dir, ec) && !fsys::is_empty(dir, ec))
        return errnoError(EEXIST, "--save " + dir + " exists and is not empty",
            "name a new directory: the copy never mixes with other files");
    fsys::create_directories(dir, ec);
    if (ec) return errnoError(ec.value(), "cannot make " + dir);
    Copier copy(fs, dir);
    if (fs.isDirectory("info"))
        if (auto s = copy.tree("info", "info"); !s) return s.error();
    if (auto s = copy.group("", ""); !s) return s.error();
    unsigned nextMon = 0, nextGroup = 0;
    if (auto s = copy.monitorGroups("", "", nextMon); !s) return s.error();
    auto entries = fs.list("");
    if (!entries) return entries.error();
    for (const auto& e : *entries) {
        if (e == "info" || e == "mon_data" || e == "mon_groups" || !fs.isDirectory(e)) continue;
        const std::string name = "group" + std::to_string(++nextGroup);
        if (auto s = copy.group(e, name); !s) return s.error();
        if (auto s = copy.monitorGroups(e, name, nextMon); !s) return s.error();
    }
    return copy.files;
}

} // namespace rdt::selftest

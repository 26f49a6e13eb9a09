// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for resctrl trees (`--source resctrl:PATH` on a copied or mangled tree): the input is a whole tree
// in the text form of tests/data/resctrl/corpus ("@path" starts a file, "@path/" is an empty directory, the lines
// up to the next "@" are its content), served through an in-memory Fs. The backend then does everything a
// consumer does: capabilities, groups, schemata (each value through the one mask and bandwidth parser), CPUs,
// tasks and counters. Errors and warnings are expected for garbage; crashes and hangs are not.
#include "core/Fs.h"
#include "core/FsPath.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Schemata.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

namespace {

class TreeFs final : public rdt::Fs {
public:
    explicit TreeFs(const std::string& text)
    {
        std::string* current = nullptr;
        std::size_t pos = 0;
        while (pos < text.size() && m_files.size() < 4096) {
            std::size_t end = text.find('\n', pos);
            if (end == std::string::npos) end = text.size();
            const std::string_view line = std::string_view(text).substr(pos, end - pos);
            pos = end + 1;
            if (!line.empty() && line[0] == '@') {
                std::string path(line.substr(1));
                const bool dir = !path.empty() && path.back() == '/';
                if (dir) path.pop_back();
                if (!rdt::splitBeneath(path)) {
                    current = nullptr;
                    continue;
                }
                addParents(path);
                if (dir) {
                    m_dirs.insert(path);
                    current = nullptr;
                } else {
                    current = &m_files[path];
                }
            } else if (current) {
                current->append(line).push_back('\n');
            }
        }
    }

    rdt::Result<std::string> read(const std::string& path) override
    {
        auto it = m_files.find(path);
        if (it == m_files.end()) return rdt::errnoError(m_dirs.count(path) ? EISDIR : ENOENT, "no " + path);
        return it->second;
    }
    rdt::Status write(const std::string& path, const std::string&) override
    {
        return rdt::errnoError(EROFS, "read-only fuzz tree: " + path);
    }
    rdt::Status mkdir(const std::string& path) override { return rdt::errnoError(EROFS, path); }
    rdt::Status rmdir(const std::string& path) override { return rdt::errnoError(EROFS, path); }
    rdt::Result<std::vector<std::string>> list(const std::string& path) override
    {
        if (!path.empty() && !m_dirs.count(path)) return rdt::errnoError(ENOTDIR, path);
        const std::string prefix = path.empty() ? "" : path + "/";
        std::set<std::string> names;
        // Only the sorted range of keys that start with the prefix: the backend lists once per group and per
        // mon_data domain, and a scan of the whole tree each time made the harness quadratic in the tree's size.
        auto collect = [&](const auto& keys, auto key) {
            for (auto it = keys.lower_bound(prefix); it != keys.end(); ++it) {
                const std::string_view p = key(*it);
                if (!p.starts_with(prefix)) break;
                if (p.size() == prefix.size()) continue;
                const std::string_view rest = p.substr(prefix.size());
                names.emplace(rest.substr(0, rest.find('/')));
            }
        };
        collect(m_files, [](const auto& entry) { return std::string_view(entry.first); });
        collect(m_dirs, [](const std::string& d) { return std::string_view(d); });
        return std::vector<std::string>(names.begin(), names.end());
    }
    bool exists(const std::string& path) override { return path.empty() || m_files.count(path) || m_dirs.count(path); }
    bool isDirectory(const std::string& path) override { return path.empty() || m_dirs.count(path); }
    rdt::Result<rdt::UniqueFd> openForPolling(const std::string& path) override
    {
        return rdt::errnoError(ENOTSUP, path);
    }
    bool taskExists(unsigned) override { return false; }
    rdt::Status lock(bool) override { return {}; }
    void unlock() override { }
    std::string describe() const override { return "fuzz tree"; }

private:
    /// Deepest parent first, stopping at one already known: its own parents were added with it. (splitBeneath
    /// accepted the path, so it has no leading '/' and no empty component.)
    void addParents(const std::string& path)
    {
        for (auto slash = path.rfind('/'); slash != std::string::npos && slash > 0; slash = path.rfind('/', slash - 1))
            if (!m_dirs.insert(path.substr(0, slash)).second) break;
    }
    std::map<std::string, std::string> m_files;
    std::set<std::string> m_dirs;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace rdt;
    auto fs = std::make_shared<TreeFs>(std::string(reinterpret_cast<const char*>(data), size));
    auto backend = ResctrlBackend::open(fs);
    if (!backend) return 0;
    auto& b = **backend;
    (void)b.capabilities();
    auto groups = b.listGroups();
    if (!groups) return 0;
    std::vector<std::string> paths;
    for (const auto& g : *groups) {
        paths.push_back(g.path);
        if (auto s = b.readSchemata(g.path); s)
            for (const auto& line : s->lines())
                for (const auto& [domain, value] : line.values) {
                    (void)parseMask(value);
                    (void)parseBandwidth(value);
                    (void)normaliseValue(line.resource, value);
                }
        (void)b.cpus(g.path);
        (void)b.tasks(g.path);
        (void)b.readCounters(g.path);
    }
    (void)b.readCountersMany(paths);
    if (auto text = fs->read("schemata"); text) { // the strict parser `alloc set` uses on user input
        (void)Schemata::parseStrict(*text);
        (void)Schemata::parse(*text);
    }
    return 0;
}

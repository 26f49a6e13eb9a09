// SPDX-License-Identifier: GPL-3.0-or-later
#include "OwnedGroups.h"

#include <charconv>
#include <fstream>

namespace rdt::metrics {

std::string ownedGroupName(unsigned ownerPid, std::string_view what)
{
    return std::string(kOwnedGroupPrefix) + std::to_string(ownerPid) + "." + std::string(what);
}

std::optional<unsigned> ownedGroupOwner(std::string_view path)
{
    // Only monitor groups: "mon_groups/NAME" or "CTRL/mon_groups/NAME".
    const auto mon = path.rfind("mon_groups/");
    if (mon == std::string_view::npos || (mon != 0 && path[mon - 1] != '/')) return std::nullopt;
    std::string_view name = path.substr(mon + 11);
    if (name.find('/') != std::string_view::npos || name.rfind(kOwnedGroupPrefix, 0) != 0) return std::nullopt;
    name.remove_prefix(kOwnedGroupPrefix.size());
    const auto dot = name.find('.');
    if (dot == 0 || dot == std::string_view::npos || dot + 1 == name.size()) return std::nullopt;
    unsigned pid = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + dot, pid);
    if (ec != std::errc() || end != name.data() + dot || pid == 0) return std::nullopt;
    return pid;
}

bool isRunningAgent(unsigned pid, const std::string& procRoot)
{
    std::ifstream in(procRoot + "/" + std::to_string(pid) + "/comm");
    std::string comm;
    return static_cast<bool>(std::getline(in, comm)) && comm == "rdtscope-agent";
}

OwnedGroups::OwnedGroups(engine::Engine& engine, unsigned ownerPid, std::function<bool(unsigned)> ownerAlive)
    : m_engine(engine)
    , m_ownerPid(ownerPid)
    , m_ownerAlive(std::move(ownerAlive))
{ }

std::vector<std::string> OwnedGroups::reclaim()
{
    std::vector<std::string> log;
    const auto snapshot = m_engine.snapshot(false);
    if (!snapshot.result.ok) {
        log.push_back("cannot look for monitor groups left by stopped agents: " + snapshot.result.toString());
        return log;
    }
    for (const auto& g : snapshot.groups) {
        if (g.info.isControl) continue;
        const auto owner = ownedGroupOwner(g.info.path);
        if (!owner || m_paths.count(g.info.path)) continue;
        if (*owner != m_ownerPid && m_ownerAlive(*owner)) continue; // another running agent's
        const auto r = m_engine.deleteGroup(g.info.path);
        log.push_back(r.ok ? "reclaimed monitor group " + g.info.path + " (agent " + std::to_string(*owner)
                    + " no longer runs; its tasks went back to the parent group)"
                           : "could not reclaim monitor group " + g.info.path + ": " + r.toString());
    }
    return log;
}

Result<std::string> OwnedGroups::create(
    const std::string& parent, std::string_view what, const std::vector<unsigned>& pids)
{
    const std::string name = ownedGroupName(m_ownerPid, what);
    const std::string path = parent.empty() ? "mon_groups/" + name : parent + "/mon_groups/" + name;
    if (auto r = m_engine.createMonitorGroup(parent, name); !r.ok) return r.error();
    if (auto r = m_engine.assignTasks(path, pids); !r.ok) {
        (void)m_engine.deleteGroup(path); // no empty group left holding an RMID
        return r.error();
    }
    m_paths.insert(path);
    return path;
}

engine::CommandResult OwnedGroups::addTasks(const std::string& path, const std::vector<unsigned>& pids)
{
    if (!m_paths.count(path))
        return engine::CommandResult::failure(makeError("not a monitor group of this agent: " + path));
    return m_engine.assignTasks(path, pids);
}

engine::CommandResult OwnedGroups::remove(const std::string& path)
{
    if (!m_paths.count(path))
        return engine::CommandResult::failure(makeError("not a monitor group of this agent: " + path));
    auto r = m_engine.deleteGroup(path);
    if (r.ok) m_paths.erase(path);
    return r;
}

std::vector<std::string> OwnedGroups::removeAll()
{
    std::vector<std::string> log;
    const std::set<std::string> paths = m_paths;
    for (const auto& path : paths) {
        const auto r = remove(path);
        log.push_back(
            r.ok ? "removed monitor group " + path : "could not remove monitor group " + path + ": " + r.toString());
    }
    return log;
}

} // namespace rdt::metrics

// SPDX-License-Identifier: GPL-3.0-or-later
#include "StateWatcher.h"

#include <algorithm>

namespace rdt::session {

std::string compressIdList(std::vector<unsigned> ids)
{
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(ids[i]);
        if (j > i) out += '-' + std::to_string(ids[j]);
        i = j + 1;
    }
    return out;
}

StateWatcher::Changes StateWatcher::poll(std::uint64_t timeNs)
{
    if (!m_backend) return {};
    auto groups = m_backend->listGroups();
    if (!groups) {
        Changes c;
        c.errors.push_back(groups.error().toString());
        return c;
    }
    std::vector<GroupReading> readings;
    for (const auto& g : *groups) {
        GroupReading r;
        r.path = g.path;
        r.isControl = g.isControl;
        if (g.isControl) {
            if (auto s = m_backend->readSchemata(g.path))
                r.schemata = std::move(*s);
            else
                r.schemataError = s.error().toString();
        }
        if (auto t = m_backend->tasks(g.path)) r.tasks = std::move(*t);
        if (auto cp = m_backend->cpus(g.path)) r.cpus = std::move(*cp);
        readings.push_back(std::move(r));
    }
    return observe(timeNs, readings);
}

StateWatcher::Changes StateWatcher::observe(std::uint64_t timeNs, const std::vector<GroupReading>& groups)
{
    Changes c;
    const char* who = m_first ? "initial" : "observed";
    for (const auto& g : groups) {
        if (g.isControl) {
            if (g.schemata) {
                for (const auto& line : g.schemata->lines()) {
                    for (const auto& [domain, value] : line.values) {
                        auto& known = m_values[{ g.path, line.resource, domain }];
                        if (known == value) continue;
                        c.allocations.push_back({ timeNs, who, g.path, line.resource, domain, known, value, true, {} });
                        known = value;
                    }
                }
            } else {
                c.errors.push_back(g.schemataError);
            }
        }
        std::string tasks, cpus;
        if (g.tasks) {
            std::vector<unsigned> pids = *g.tasks;
            std::sort(pids.begin(), pids.end());
            for (unsigned p : pids)
                tasks += (tasks.empty() ? "" : " ") + std::to_string(p);
        }
        if (g.cpus) cpus = compressIdList(*g.cpus);
        auto it = m_members.find(g.path);
        if (it == m_members.end() || it->second != std::make_pair(tasks, cpus)) {
            c.memberships.push_back({ timeNs, g.path, tasks, cpus });
            m_members[g.path] = { tasks, cpus };
        }
    }
    m_first = false;
    return c;
}

} // namespace rdt::session

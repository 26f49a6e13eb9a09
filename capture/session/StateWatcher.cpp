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
        if (!out.empty())
            out += ',';
        out += std::to_string(ids[i]);
        if (j > i)
            out += '-' + std::to_string(ids[j]);
        i = j + 1;
    }
    return out;
}

StateWatcher::Changes StateWatcher::poll(std::uint64_t timeNs)
{
    Changes c;
    const char* who = m_first ? "initial" : "observed";
    auto groups = m_backend.listGroups();
    if (!groups) {
        c.errors.push_back(groups.error().toString());
        return c;
    }
    for (const auto& g : *groups) {
        if (g.isControl) {
            if (auto s = m_backend.readSchemata(g.path)) {
                for (const auto& line : s->lines()) {
                    for (const auto& [domain, value] : line.values) {
                        auto& known = m_values[{ g.path, line.resource, domain }];
                        if (known == value)
                            continue;
                        c.allocations.push_back({ timeNs, who, g.path, line.resource, domain, known, value, true, {} });
                        known = value;
                    }
                }
            } else {
                c.errors.push_back(s.error().toString());
            }
        }
        std::string tasks, cpus;
        if (auto t = m_backend.tasks(g.path)) {
            std::vector<unsigned> pids = *t;
            std::sort(pids.begin(), pids.end());
            for (unsigned p : pids)
                tasks += (tasks.empty() ? "" : " ") + std::to_string(p);
        }
        if (auto cp = m_backend.cpus(g.path))
            cpus = compressIdList(*cp);
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

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExternalChangeDetector.h"

#include "rdt/Schemata.h"

namespace rdt::engine {

ExternalChangeDetector::Reading ExternalChangeDetector::read(RdtBackend& backend, const std::string* onlyPath)
{
    Reading out;
    auto groups = backend.listGroups();
    if (!groups) return out; // nothing read is nothing changed; the sampler reports a tree it cannot read
    for (const auto& g : *groups) {
        if (!g.isControl || (onlyPath && g.path != *onlyPath)) continue;
        auto schemata = backend.readSchemata(g.path);
        if (!schemata) continue; // unreadable now: kept as last seen
        // Compared normalised ("0x7ff", "07ff" and "7ff" are one mask), as the allocation engine's events are.
        Schemata normalised;
        for (const auto& line : schemata->lines())
            for (const auto& [domain, value] : line.values)
                normalised.set(line.resource, domain, normaliseValue(line.resource, value));
        session::StateWatcher::GroupReading r;
        r.path = g.path;
        r.isControl = true;
        r.schemata = std::move(normalised);
        out.groups.push_back(std::move(r));
        if (!g.mode.empty() && g.mode != "?") out.modes[g.path] = g.mode;
    }
    return out;
}

std::vector<AllocationChanged> ExternalChangeDetector::check(RdtBackend& backend, std::uint64_t timeNs)
{
    auto now = read(backend, nullptr);
    auto seen = m_watcher.observe(timeNs, now.groups);
    std::vector<AllocationChanged> out;
    if (!m_baselined) {
        m_baselined = true;
        m_modes = std::move(now.modes);
        for (const auto& g : now.groups)
            m_known.insert(g.path);
        return out;
    }
    const Schemata* defaults = nullptr;
    for (const auto& g : now.groups)
        if (g.path.empty()) defaults = &*g.schemata;
    for (auto& c : seen.allocations) {
        if (!m_known.count(c.group)) {
            const auto def = defaults ? defaults->value(c.resource, c.domain) : std::nullopt;
            if (def && *def == c.newValue) continue;
        }
        c.who = kExternalWho;
        c.message = "changed by another program";
        out.push_back(std::move(c));
    }
    for (const auto& [path, mode] : now.modes) {
        auto it = m_modes.find(path);
        if (it != m_modes.end() && it->second != mode)
            out.push_back({ timeNs, kExternalWho, path, kModeResource, -1, it->second, mode, true,
                "changed by another program" });
        m_modes[path] = mode;
    }
    for (const auto& g : now.groups)
        m_known.insert(g.path);
    return out;
}

void ExternalChangeDetector::acknowledge(const AllocationChanged& change)
{
    if (!change.ok || change.domain < 0) return; // refused or rolled back: the value in force did not change
    m_watcher.acknowledge(change.group, change.resource, change.domain, change.newValue);
}

void ExternalChangeDetector::adoptGroup(RdtBackend& backend, const std::string& path)
{
    auto now = read(backend, &path);
    (void)m_watcher.observe(0, now.groups);
    for (const auto& [p, mode] : now.modes)
        m_modes[p] = mode;
    m_known.insert(path);
}

void ExternalChangeDetector::reset()
{
    m_watcher = session::StateWatcher();
    m_baselined = false;
    m_modes.clear();
    m_known.clear();
}

} // namespace rdt::engine

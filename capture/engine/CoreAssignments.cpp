// SPDX-License-Identifier: GPL-3.0-or-later
#include "CoreAssignments.h"

#include <algorithm>
#include <set>

namespace rdt::engine {

std::string formatDomainValues(const std::map<int, std::string>& values)
{
    std::string out;
    for (const auto& [domain, value] : values)
        out += (out.empty() ? "" : ";") + std::to_string(domain) + "=" + value;
    return out;
}

namespace {
bool lists(const GroupState& g, unsigned cpu)
{
    return g.cpusKnown && std::find(g.cpus.begin(), g.cpus.end(), cpu) != g.cpus.end();
}
} // namespace

CoreAssignments coreAssignments(const GroupsSnapshot& snapshot, const Capabilities& capabilities)
{
    CoreAssignments out;
    for (const auto& r : capabilities.resources)
        out.resources.push_back(r.name);
    const GroupState* root = nullptr;
    std::vector<const GroupState*> controls, monitors;
    for (const auto& g : snapshot.groups) {
        if (!g.info.isControl)
            monitors.push_back(&g);
        else if (g.info.path.empty())
            root = &g;
        else
            controls.push_back(&g);
    }
    std::sort(controls.begin(), controls.end(),
        [](const GroupState* a, const GroupState* b) { return a->info.path < b->info.path; });
    if (root) controls.insert(controls.begin(), root);

    out.closidsKnown = !controls.empty();
    out.rmidsKnown = !snapshot.groups.empty();
    for (const auto& g : snapshot.groups) {
        out.closidsKnown = out.closidsKnown && (!g.info.isControl || g.info.closid >= 0);
        out.rmidsKnown = out.rmidsKnown && g.info.rmid >= 0;
    }
    for (const GroupState* g : controls) {
        ClassAllocation c;
        c.group = g->info.path;
        c.closid = g->info.closid;
        c.mode = g->info.mode;
        c.cpus = g->cpus;
        c.cpusKnown = g->cpusKnown;
        c.error = g->schemataError;
        for (const auto& r : out.resources) {
            const auto* line = g->schemata.line(r);
            c.values.push_back(line ? formatDomainValues(line->values) : std::string());
        }
        out.classes.push_back(std::move(c));
    }

    std::set<unsigned> cpus(capabilities.cpus.begin(), capabilities.cpus.end());
    for (const auto& g : snapshot.groups)
        cpus.insert(g.cpus.begin(), g.cpus.end());
    for (unsigned cpu : cpus) {
        CoreAssignment a;
        a.cpu = cpu;
        // A CPU written to a group leaves the default group (resctrl.rst "cpus"), so another group's claim wins.
        const GroupState* control = nullptr;
        for (auto it = controls.rbegin(); it != controls.rend() && !control; ++it)
            if (lists(**it, cpu)) control = *it;
        if (!control) {
            a.known = false;
            out.cores.push_back(a);
            continue;
        }
        a.controlGroup = control->info.path;
        a.closid = control->info.closid;
        a.monitorGroup = control->info.path;
        a.rmid = control->info.rmid;
        for (const GroupState* m : monitors)
            if (m->info.parent == control->info.path && lists(*m, cpu)) {
                a.monitorGroup = m->info.path;
                a.rmid = m->info.rmid;
                break;
            }
        out.cores.push_back(a);
    }
    return out;
}

} // namespace rdt::engine

// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationEngine.h"

#include "AllocationRules.h"
#include "core/Time.h"

#include <cerrno>

namespace rdt {

namespace {
std::string where(const std::string& resource, int domain)
{
    return resource + ":" + std::to_string(domain);
}
}

AllocationEngine::AllocationEngine(RdtBackend& backend)
    : m_backend(backend)
    , m_clock([] { return monotonicNs(); })
{ }

void AllocationEngine::setListener(std::function<void(const AllocationChanged&)> listener)
{
    std::lock_guard lock(m_mutex);
    m_listener = std::move(listener);
}

void AllocationEngine::setClock(std::function<std::uint64_t()> clock)
{
    std::lock_guard lock(m_mutex);
    m_clock = std::move(clock);
}

std::vector<AllocationChanged> AllocationEngine::history() const
{
    std::lock_guard lock(m_mutex);
    return m_history;
}

void AllocationEngine::publish(AllocationChanged event)
{
    std::function<void(const AllocationChanged&)> listener;
    {
        std::lock_guard lock(m_mutex);
        event.timeNs = m_clock ? m_clock() : monotonicNs();
        m_history.push_back(event);
        listener = m_listener;
    }
    if (listener) listener(event);
}

Result<Schemata> AllocationEngine::validate(
    const std::string& group, const Schemata& change, std::vector<std::string>* notes)
{
    auto caps = m_backend.capabilities();
    if (!caps) return caps.error();
    // Other control groups, for the exclusive/shareable overlap rules (kernel rdtgroup_cbm_overlaps).
    std::vector<PeerGroup> peers;
    bool selfExclusive = false;
    bool needPeers = false;
    for (const auto& line : change.lines())
        needPeers |= isCacheResource(line.resource);
    if (needPeers && group.find("mon_groups/") == std::string::npos) {
        if (auto groups = m_backend.listGroups()) {
            for (const auto& g : *groups) {
                if (!g.isControl) continue;
                if (g.path == group) {
                    selfExclusive = g.mode == "exclusive";
                    continue;
                }
                if (auto s = m_backend.readSchemata(g.path))
                    peers.push_back({ g.path, g.mode == "exclusive", std::move(*s) });
            }
        }
    }
    auto verdict = validateAllocation(*caps, group, selfExclusive, peers, change);
    if (!verdict.ok) return verdict.problem.toError();
    if (notes) notes->insert(notes->end(), verdict.notes.begin(), verdict.notes.end());
    return std::move(verdict.normalised);
}

AllocationOutcome AllocationEngine::apply(const AllocationRequest& request)
{
    AllocationOutcome outcome;
    auto event = [&](const std::string& res, int d, const std::string& oldV, const std::string& newV, bool ok,
                     std::string msg) {
        AllocationChanged e;
        e.who = request.who;
        e.group = request.group;
        e.resource = res;
        e.domain = d;
        e.oldValue = oldV;
        e.newValue = newV;
        e.ok = ok;
        e.message = std::move(msg);
        outcome.events.push_back(e);
        publish(std::move(e));
    };

    auto valid = validate(request.group, request.change, &outcome.notes);
    if (!valid) {
        outcome.error = valid.error();
        for (const auto& line : request.change.lines())
            for (const auto& [d, v] : line.values)
                event(line.resource, d, {}, v, false, "rejected before writing: " + outcome.error.message);
        return outcome;
    }
    auto current = m_backend.readSchemata(request.group);
    if (!current) {
        outcome.error = current.error();
        return outcome;
    }
    auto caps = m_backend.capabilities();
    struct Step {
        std::string resource;
        int domain;
        std::string oldValue;
        std::string newValue;
    };
    std::vector<Step> steps;
    for (const auto& line : valid->lines()) {
        for (const auto& [d, v] : line.values) {
            auto old = current->value(line.resource, d);
            std::string oldV = old ? normaliseValue(line.resource, *old) : std::string {};
            if (!old && caps)
                if (const auto* r = caps->resource(line.resource)) oldV = r->defaultValue();
            steps.push_back({ line.resource, d, oldV, v });
        }
    }
    std::size_t done = 0;
    for (; done < steps.size(); ++done) {
        const auto& s = steps[done];
        if (s.oldValue == s.newValue) continue; // nothing to write; reported as ok below
        Schemata one;
        one.set(s.resource, s.domain, s.newValue);
        if (auto w = m_backend.applySchemata(request.group, one); !w) {
            outcome.error = w.error();
            break;
        }
    }
    if (done == steps.size()) {
        outcome.ok = true;
        outcome.applied = *valid;
        for (const auto& s : steps)
            event(s.resource, s.domain, s.oldValue, s.newValue, true, s.oldValue == s.newValue ? "unchanged" : "ok");
        return outcome;
    }
    // Roll back, newest first, every value already written; the first failure is what we report.
    bool restored = true;
    std::string rollbackProblems;
    for (std::size_t i = done; i-- > 0;) {
        const auto& s = steps[i];
        if (s.oldValue == s.newValue || s.oldValue.empty()) continue;
        Schemata one;
        one.set(s.resource, s.domain, s.oldValue);
        if (auto w = m_backend.applySchemata(request.group, one); !w) {
            restored = false;
            rollbackProblems += "; could not restore " + where(s.resource, s.domain) + "=" + s.oldValue + ": "
                + w.error().toString();
        }
    }
    outcome.rolledBack = restored;
    const auto& failed = steps[done];
    for (std::size_t i = 0; i < done; ++i) {
        const auto& s = steps[i];
        event(s.resource, s.domain, s.oldValue, s.newValue, false,
            restored ? "rolled back after " + where(failed.resource, failed.domain) + " failed"
                     : "rollback incomplete" + rollbackProblems);
    }
    event(failed.resource, failed.domain, failed.oldValue, failed.newValue, false, outcome.error.toString());
    for (std::size_t i = done + 1; i < steps.size(); ++i)
        event(steps[i].resource, steps[i].domain, steps[i].oldValue, steps[i].newValue, false,
            "not attempted: " + where(failed.resource, failed.domain) + " failed first");
    if (!restored) outcome.error.advice += " (WARNING" + rollbackProblems + ")";
    return outcome;
}

} // namespace rdt

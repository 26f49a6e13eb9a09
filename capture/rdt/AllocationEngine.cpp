// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationEngine.h"
#include "rdt/GroupNames.h"

#include "AllocationRules.h"
#include "core/Time.h"

#include <cerrno>
#include <optional>

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
    bool needPeers = false, needCurrent = false;
    for (const auto& line : change.lines()) {
        const auto* r = caps->resource(line.resource);
        // Overlap rules and MB_MIN's budget need the other groups; a region bound needs the group's other bounds.
        needPeers |= isCacheResource(line.resource) || (r && r->role == api::BandwidthRole::Reserved);
        needCurrent |= r && r->region >= 0;
    }
    if (needPeers && group.find("mon_groups/") == std::string::npos) {
        // A peer that cannot be read is a rule that cannot be checked: refuse rather than guess.
        auto groups = m_backend.listGroups();
        if (!groups) return groups.error();
        for (const auto& g : *groups) {
            if (!g.isControl) continue;
            if (g.mode == "?")
                return errnoError(EIO,
                    "cannot read the mode of group '" + displayGroup(g.path)
                        + "', so the exclusive/shareable rules cannot be checked",
                    "nothing was written; check " + (g.path.empty() ? std::string("mode") : g.path + "/mode"));
            if (g.path == group) {
                selfExclusive = g.mode == "exclusive";
                continue;
            }
            auto s = m_backend.readSchemata(g.path);
            if (!s) {
                Error e = s.error();
                e.message = "cannot check the overlap rules against group '" + displayGroup(g.path) + "': " + e.message;
                e.advice = "nothing was written; " + e.advice;
                return e;
            }
            peers.push_back({ g.path, g.mode == "exclusive", std::move(*s) });
        }
    }
    std::optional<Schemata> current;
    if (needCurrent) {
        auto s = m_backend.readSchemata(group);
        if (!s) return s.error();
        current = std::move(*s);
    }
    auto verdict = validateAllocation(*caps, group, selfExclusive, peers, change, current ? &*current : nullptr);
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

    ChangeLock transaction(m_backend); // held until return: read, validate, write, read back, roll back
    if (!transaction.status()) {
        outcome.error = transaction.status().error();
        return outcome;
    }
    auto valid = validate(request.group, request.change, &outcome.notes);
    if (!valid) {
        outcome.error = valid.error();
        // The events name the value that stays ("fffff -> 0 rejected"); an unreadable group leaves it unknown.
        const auto before = m_backend.readSchemata(request.group);
        for (const auto& line : request.change.lines())
            for (const auto& [d, v] : line.values)
                event(line.resource, d, before ? before->value(line.resource, d).value_or("") : "", v, false,
                    "rejected before writing: " + outcome.error.message);
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
    auto label = [&](std::size_t i) {
        const auto& s = steps[i];
        return std::to_string(i + 1) + " " + where(s.resource, s.domain) + " " + s.oldValue + " -> " + s.newValue;
    };
    std::size_t done = 0;
    for (; done < steps.size(); ++done) {
        const auto& s = steps[done];
        if (s.oldValue == s.newValue) {
            outcome.steps.push_back(label(done) + ": unchanged");
            continue;
        }
        Schemata one;
        one.set(s.resource, s.domain, s.newValue);
        if (auto w = m_backend.applySchemata(request.group, one); !w) {
            outcome.error = w.error();
            outcome.steps.push_back(label(done) + ": failed: " + w.error().message);
            break;
        }
        outcome.steps.push_back(label(done) + ": written");
    }
    if (done == steps.size()) {
        outcome.ok = true;
        outcome.applied = *valid;
        for (const auto& s : steps)
            event(s.resource, s.domain, s.oldValue, s.newValue, true, s.oldValue == s.newValue ? "unchanged" : "ok");
        return outcome;
    }
    const bool restored = rollBack(
        request.group, done,
        [&](std::size_t i) {
            return RollbackStep { steps[i].resource, steps[i].domain, steps[i].oldValue };
        },
        outcome.steps);
    outcome.rolledBack = restored;
    std::string rollbackProblems;
    for (const auto& line : outcome.steps)
        if (line.rfind("rollback", 0) == 0 && line.find("restored") == std::string::npos)
            rollbackProblems += "; " + line;
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
    if (!restored) outcome.error.advice += " (WARNING: rollback incomplete" + rollbackProblems + ")";
    return outcome;
}

bool AllocationEngine::rollBack(const std::string& group, std::size_t failed,
    const std::function<RollbackStep(std::size_t)>& stepAt, std::vector<std::string>& log)
{
    // What the hardware holds now decides what to restore: a failed write may have changed its domain (the
    // read-back differed) or nothing (the kernel refused the line). When the state cannot be read, every step up
    // to and including the failed one is written back.
    auto now = m_backend.readSchemata(group);
    bool ok = true;
    for (std::size_t i = failed + 1; i-- > 0;) {
        const auto s = stepAt(i);
        if (s.oldValue.empty()) continue;
        const auto here = where(s.resource, s.domain);
        if (now) {
            const auto cur = now->value(s.resource, s.domain);
            if (cur && normaliseValue(s.resource, *cur) == s.oldValue) {
                if (i == failed) log.push_back("rollback " + here + ": unchanged by the failed write");
                continue;
            }
        }
        Schemata one;
        one.set(s.resource, s.domain, s.oldValue);
        if (auto w = m_backend.applySchemata(group, one); !w) {
            ok = false;
            log.push_back("rollback " + here + ": could not restore " + s.oldValue + ": " + w.error().toString());
        } else {
            log.push_back("rollback " + here + ": restored " + s.oldValue);
        }
    }
    // Verify: every step up to the failed one reads back as it was before.
    auto after = m_backend.readSchemata(group);
    if (!after) {
        log.push_back("rollback check: cannot read " + group + "/schemata: " + after.error().message);
        return false;
    }
    for (std::size_t i = 0; i <= failed; ++i) {
        const auto s = stepAt(i);
        if (s.oldValue.empty()) continue;
        const auto cur = after->value(s.resource, s.domain);
        if (!cur || normaliseValue(s.resource, *cur) != s.oldValue) {
            ok = false;
            log.push_back("rollback check: " + where(s.resource, s.domain) + " is " + cur.value_or("missing") + ", was "
                + s.oldValue);
        }
    }
    return ok;
}

} // namespace rdt

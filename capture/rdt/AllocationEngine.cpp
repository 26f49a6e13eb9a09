// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationEngine.h"

#include "core/Time.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>

namespace rdt {

namespace {
std::string hex(std::uint64_t v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
}

bool contiguous(std::uint64_t m)
{
    if (m == 0) return true;
    const auto shifted = m >> std::countr_zero(m);
    return (shifted & (shifted + 1)) == 0;
}

/// The CDP peer whose masks share the same ways (L3CODE <-> L3DATA), "" when none.
std::string cdpPeer(const std::string& r)
{
    if (r.size() > 4 && (r.ends_with("CODE") || r.ends_with("DATA")))
        return r.substr(0, r.size() - 4) + (r.ends_with("CODE") ? "DATA" : "CODE");
    return {};
}

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
    if (group.find("mon_groups/") != std::string::npos)
        return errnoError(EINVAL, "'" + group + "' is a monitor group: it has no allocation of its own",
            "change its parent control group");
    if (change.empty()) return errnoError(EINVAL, "nothing to change", "give a line such as L3:0=ff0");
    // Other control groups, for the exclusive/shareable overlap rules (KGRP rdtgroup_cbm_overlaps).
    struct Other {
        std::string path;
        bool exclusive;
        Schemata schemata;
    };
    std::vector<Other> others;
    bool selfExclusive = false;
    bool needOthers = false;
    for (const auto& line : change.lines())
        needOthers |= isCacheResource(line.resource);
    if (needOthers) {
        if (auto groups = m_backend.listGroups()) {
            for (const auto& g : *groups) {
                if (!g.isControl) continue;
                if (g.path == group) {
                    selfExclusive = g.mode == "exclusive";
                    continue;
                }
                if (auto s = m_backend.readSchemata(g.path))
                    others.push_back({ g.path, g.mode == "exclusive", std::move(*s) });
            }
        }
    }
    Schemata out;
    for (const auto& line : change.lines()) {
        const auto* r = caps->resource(line.resource);
        if (!r)
            return errnoError(
                EINVAL, "Unknown or unsupported resource name '" + line.resource + "'", "this machine has: " + [&] {
                    std::string s;
                    for (const auto& x : caps->resources)
                        s += (s.empty() ? "" : ", ") + x.name;
                    return s.empty() ? std::string("no allocation resources") : s;
                }());
        if (r->domains.empty())
            return errnoError(EINVAL, r->name + " has no known domains",
                "the root group's schemata has no " + r->name + " line, so no domain id can be checked");
        for (const auto& [domain, text] : line.values) {
            if (std::find(r->domains.begin(), r->domains.end(), domain) == r->domains.end())
                return errnoError(
                    EINVAL, "Unknown domain " + where(r->name, domain),
                    "domain ids of " + r->name + " are cache ids: " + [&] {
                        std::string s;
                        for (int d : r->domains)
                            s += (s.empty() ? "" : ",") + std::to_string(d);
                        return s;
                    }());
            if (r->isCache()) {
                auto m = parseMask(text);
                if (!m) return errnoError(EINVAL, where(r->name, domain) + ": " + m.error().message, m.error().advice);
                const auto mask = *m;
                if (mask == 0 || (mask & ~r->cbmMask) != 0)
                    return errnoError(EINVAL, where(r->name, domain) + ": Mask out of range (" + hex(mask) + ")",
                        "valid bits are " + hex(r->cbmMask) + " (info/" + r->name + "/cbm_mask)");
                if (!r->sparseMasks && !contiguous(mask))
                    return errnoError(EINVAL,
                        where(r->name, domain) + ": The mask " + hex(mask) + " has non-consecutive 1-bits",
                        "this CPU needs contiguous masks (sparse_masks=0, SDM 20.19.4.3)");
                if (static_cast<unsigned>(std::popcount(mask)) < r->minCbmBits)
                    return errnoError(EINVAL,
                        where(r->name, domain) + ": Need at least " + std::to_string(r->minCbmBits)
                            + " bits in the mask",
                        "info/" + r->name + "/min_cbm_bits is " + std::to_string(r->minCbmBits));
                if (selfExclusive && (mask & r->shareableBits) != 0)
                    return errnoError(EINVAL,
                        where(r->name, domain) + ": Overlaps with hardware-shared bits " + hex(r->shareableBits),
                        "an exclusive group may not use shareable_bits; drop those bits or make the group shareable");
                for (const auto& o : others) {
                    for (const auto& res : { r->name, cdpPeer(r->name) }) {
                        if (res.empty()) continue;
                        const auto ov = o.schemata.value(res, domain);
                        if (!ov) continue;
                        const auto om = parseMask(*ov).valueOr(0);
                        if ((om & mask) == 0) continue;
                        if (o.exclusive)
                            return errnoError(EINVAL,
                                where(r->name, domain) + ": Overlaps with exclusive group '" + o.path + "' (" + res
                                    + " " + hex(om) + ")",
                                "pick bits outside " + hex(om) + " or make '" + o.path + "' shareable");
                        if (selfExclusive)
                            return errnoError(EINVAL,
                                where(r->name, domain) + ": Overlaps with other group '" + o.path + "' (" + res + " "
                                    + hex(om) + ")",
                                "an exclusive group may not share bits with any other group");
                    }
                }
                out.set(r->name, domain, hex(mask));
            } else {
                auto b = parseBandwidth(text);
                if (!b) return errnoError(EINVAL, where(r->name, domain) + ": " + b.error().message, b.error().advice);
                auto v = *b;
                const std::string& what = r->name;
                if (r->mbpsMode) {
                    if (v > UINT32_MAX)
                        return errnoError(EINVAL, where(r->name, domain) + ": MB value out of range (MiBps, 32 bits)");
                } else {
                    const unsigned maxBw = r->maxBandwidth;
                    if (v < r->minBandwidth || v > maxBw)
                        return errnoError(EINVAL,
                            where(r->name, domain) + ": " + what + " value " + std::to_string(v) + " out of range ["
                                + std::to_string(r->minBandwidth) + "," + std::to_string(maxBw) + "]",
                            "info/" + r->name + "/min_bandwidth is " + std::to_string(r->minBandwidth));
                    // The kernel rounds up to the granularity (KCTRL bw_validate: roundup(bw, gran)).
                    if (r->bandwidthGran > 1 && v % r->bandwidthGran != 0) {
                        const auto rounded = (v + r->bandwidthGran - 1) / r->bandwidthGran * r->bandwidthGran;
                        if (notes)
                            notes->push_back(where(r->name, domain) + " " + std::to_string(v) + " rounded up to "
                                + std::to_string(rounded) + " (bandwidth_gran " + std::to_string(r->bandwidthGran)
                                + ")");
                        v = rounded;
                    }
                }
                out.set(r->name, domain, std::to_string(v));
            }
        }
    }
    return out;
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

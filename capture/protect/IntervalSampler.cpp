// SPDX-License-Identifier: GPL-3.0-or-later
#include "IntervalSampler.h"

#include <algorithm>

namespace rdt::protect {

IntervalSampler::IntervalSampler(
    engine::Engine& engine, std::string lcGroup, std::vector<std::string> beGroups, bool paced, Hooks hooks)
    : m_engine(engine)
    , m_lc(std::move(lcGroup))
    , m_be(std::move(beGroups))
    , m_paced(paced)
    , m_hooks(std::move(hooks))
{
    m_t0 = m_engine.nowNs();
    m_wall0 = std::chrono::steady_clock::now();
    m_lcLast = count(m_lc);
    for (const auto& g : m_be)
        if (auto c = count(g)) m_beLast[g] = *c;
}

std::optional<engine::GroupPmuCounts> IntervalSampler::count(const std::string& group)
{
    auto c = m_engine.countGroupPmu(group);
    if (!c) {
        if (group == m_lc) m_pmuMethod = c.error().toString();
        return std::nullopt;
    }
    if (group == m_lc) m_pmuMethod = c->method;
    return *c;
}

IntervalReading IntervalSampler::next(std::uint64_t intervalNs)
{
    IntervalReading r;
    m_offset += intervalNs;
    if (m_paced) m_engine.waitUntil(m_wall0 + std::chrono::nanoseconds(m_offset));
    m_engine.advanceTo(m_t0 + m_offset);
    r.timeNs = m_engine.nowNs();
    (void)m_engine.pollRdt();
    for (auto& e : m_engine.drainEvents()) {
        if (const auto* b = std::get_if<RdtSampleBatch>(&e)) {
            if (m_hooks.onBatch) m_hooks.onBatch(*b);
            double occ = 0;
            bool seen = false;
            for (const auto& s : b->samples) {
                if (s.group == m_lc && s.node < 0) {
                    occ += static_cast<double>(s.occupancyBytes);
                    seen = true;
                }
            }
            if (seen) r.lcOccupancyBytes = occ;
            std::map<std::string, std::uint64_t> mbm;
            for (const auto& s : b->samples)
                if (std::find(m_be.begin(), m_be.end(), s.group) != m_be.end()) mbm[s.group] += s.mbmTotalBytes;
            const double secs = static_cast<double>(intervalNs) / 1e9;
            for (const auto& [g, bytes] : mbm) {
                const auto last = m_beMbmLast.find(g);
                if (last != m_beMbmLast.end() && bytes >= last->second)
                    r.beMissBps += static_cast<double>(bytes - last->second) / secs;
                m_beMbmLast[g] = bytes;
            }
        } else {
            if (const auto* sim = std::get_if<SimulationEvent>(&e)) r.scenario.push_back(*sim);
            if (m_hooks.onEvent) m_hooks.onEvent(e);
        }
    }
    if (auto c = count(m_lc)) {
        if (m_lcLast && c->instructions > m_lcLast->instructions && c->cycles > m_lcLast->cycles) {
            const double instructions = c->instructions - m_lcLast->instructions;
            r.lcIpc = instructions / (c->cycles - m_lcLast->cycles);
            r.lcMpki = (c->llcMisses - m_lcLast->llcMisses) / instructions * 1000.0;
        } else if (m_lcLast) {
            r.unread = "the protected group retired no instructions in the interval";
        }
        m_lcLast = c;
    } else {
        r.unread = m_pmuMethod;
    }
    double beInstructions = 0;
    bool allCounted = !m_be.empty();
    for (const auto& g : m_be) {
        auto c = count(g);
        const auto last = m_beLast.find(g);
        if (!c || last == m_beLast.end()) {
            allCounted = false;
            if (c) m_beLast[g] = *c;
            continue;
        }
        beInstructions += std::max(0.0, c->instructions - last->second.instructions);
        last->second = *c;
    }
    if (allCounted) r.beInstructionsPerSecond = beInstructions / (static_cast<double>(intervalNs) / 1e9);
    return r;
}

} // namespace rdt::protect

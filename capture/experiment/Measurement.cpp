// SPDX-License-Identifier: GPL-3.0-or-later
#include "Measurement.h"

#include "rdt/CounterMath.h"

#include <algorithm>
#include <variant>

namespace rdt::experiment {

Measurer::Measurer(engine::Engine& engine, std::uint64_t pollNs, unsigned counterWidth, bool paced, Hooks hooks)
    : m_engine(engine)
    , m_pollNs(std::clamp<std::uint64_t>(pollNs, 1'000'000, maxPollIntervalNs(counterWidth)))
    , m_paced(paced)
    , m_hooks(std::move(hooks))
    , m_t0(engine.nowNs())
    , m_wall0(std::chrono::steady_clock::now())
{ }

bool Measurer::pollAt(std::uint64_t offset, std::map<std::string, Reading>& out)
{
    if (stopRequested()) return false;
    if (m_paced) m_engine.waitUntil(m_wall0 + std::chrono::nanoseconds(offset));
    m_engine.advanceTo(m_t0 + offset);
    m_offset = offset;
    m_polled = false;
    (void)m_engine.pollRdt();
    for (auto& e : m_engine.drainEvents()) {
        if (const auto* b = std::get_if<RdtSampleBatch>(&e)) {
            if (m_hooks.onBatch) m_hooks.onBatch(*b);
            out.clear();
            for (const auto& smp : b->samples) {
                auto& r = out[smp.group];
                r.occupancy += static_cast<double>(smp.occupancyBytes);
                r.total += smp.mbmTotalBytes;
                r.local += smp.mbmLocalBytes;
            }
            m_latest = out;
            m_polled = true;
        } else if (m_hooks.onEvent) {
            m_hooks.onEvent(e);
        }
    }
    if (m_hooks.onProgress) m_hooks.onProgress(offset);
    return !stopRequested();
}

bool Measurer::settle(std::uint64_t ns)
{
    std::map<std::string, Reading> last;
    const std::uint64_t end = m_offset + ns;
    while (m_offset < end)
        if (!pollAt(std::min(end, m_offset + m_pollNs), last)) return false;
    return true;
}

bool Measurer::measure(std::uint64_t ns, std::map<std::string, GroupMeasure>& out)
{
    std::map<std::string, Reading> first, last;
    std::map<std::string, double> occupancySum;
    unsigned polls = 0;
    const std::uint64_t start = m_offset, end = m_offset + std::max<std::uint64_t>(ns, 1);
    if (m_polled) {
        first = m_latest; // the settle's last poll, at this very instant
        if (stopRequested()) return false;
    } else if (!pollAt(m_offset, first)) {
        return false;
    }
    while (m_offset < end) {
        if (!pollAt(std::min(end, m_offset + m_pollNs), last)) return false;
        for (const auto& [g, r] : last)
            occupancySum[g] += r.occupancy;
        ++polls;
    }
    const double secs = static_cast<double>(m_offset - start) / 1e9;
    out.clear();
    for (const auto& [g, b] : last) {
        const auto a = first.find(g);
        if (a == first.end()) continue;
        auto& m = out[g];
        m.seen = true;
        m.occupancyBytes = polls ? occupancySum[g] / polls : 0;
        m.totalBps = static_cast<double>(b.total - std::min(b.total, a->second.total)) / secs;
        m.localBps = static_cast<double>(b.local - std::min(b.local, a->second.local)) / secs;
    }
    return true;
}

} // namespace rdt::experiment

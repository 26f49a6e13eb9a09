// SPDX-License-Identifier: GPL-3.0-or-later
#include "Sampler.h"

#include "CounterMath.h"
#include "SimulationControl.h"
#include "core/DescriptorLimit.h"
#include "core/Time.h"

#include <cerrno>
#include <chrono>
#include <cstdio>

namespace rdt {

Sampler::Sampler(RdtBackend& backend, SamplerConfig config, SimulationControl* simulation)
    : m_backend(backend)
    , m_config(std::move(config))
    , m_simulation(simulation)
    , m_queue(m_config.queueCapacity == 0 ? 1 : m_config.queueCapacity)
{
    // Before the first poll: the backend sizes its kept-open counter descriptors by the limit (ResctrlBackend).
    (void)raiseDescriptorLimit();
    if (auto caps = m_backend.capabilities()) {
        m_counterWidth = caps->monitoring.counterWidth;
        m_unavailableClears = caps->monitoring.bmec() || !caps->monitoring.assignMode.empty();
    }
    double rate = m_config.rateHz > 0 ? m_config.rateHz : 10.0;
    m_intervalNs = static_cast<std::uint64_t>(1e9 / rate);
    if (m_intervalNs == 0) m_intervalNs = 1;
    // SDM 20.18.8: a 24-bit MBM counter must be read at 1 Hz or faster to see at most one rollover.
    const auto maxInterval = maxPollIntervalNs(m_counterWidth);
    if (m_intervalNs > maxInterval) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
            "rate raised from %.3g Hz to %.3g Hz: %u-bit MBM counters must be read at least that often (SDM 20.18.8)",
            rate, 1e9 / static_cast<double>(maxInterval), m_counterWidth);
        m_rateNote = buf;
        m_intervalNs = maxInterval;
    }
}

Sampler::~Sampler()
{
    stop();
}

void Sampler::setCallback(std::function<void(const RdtSampleBatch&)> callback)
{
    m_callback = std::move(callback);
}

std::string Sampler::lastError() const
{
    std::lock_guard lock(m_errorMutex);
    return m_lastError;
}

Status Sampler::start()
{
    if (running()) return makeError("the sampler is already running");
    auto caps = m_backend.capabilities();
    if (!caps) return caps.error();
    if (!caps->monitoring.present)
        return errnoError(ENOENT, "no RDT monitoring on " + m_backend.describe(),
            "CMT/MBM need CPUID.07H.00H:EBX[12]; use --source sim to explore them");
    m_stop.store(false);
    m_running.store(true, std::memory_order_release);
    m_thread = std::thread([this] { run(); });
    return {};
}

void Sampler::stop()
{
    {
        std::lock_guard lock(m_wakeMutex);
        m_stop.store(true);
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
    m_running.store(false, std::memory_order_release);
}

void Sampler::run()
{
    auto next = std::chrono::steady_clock::now();
    while (!m_stop.load()) {
        std::uint64_t t = 0;
        if (m_simulation) {
            m_simulation->advanceTo(m_simulation->nowNs() + m_intervalNs);
            t = m_simulation->nowNs();
        } else {
            t = monotonicNs();
        }
        (void)poll(t); // errors are counted and kept in lastError(); the thread keeps going
        next += std::chrono::nanoseconds(m_intervalNs);
        std::unique_lock lock(m_wakeMutex);
        m_wake.wait_until(lock, next, [this] { return m_stop.load(); });
    }
}

Result<RdtSampleBatch> Sampler::pollOnce(std::uint64_t timeNs)
{
    if (running()) return makeError("pollOnce() while the sampler thread runs", "stop() the sampler first");
    return poll(timeNs);
}

void Sampler::addTelemetry(const std::string& group, const GroupCounters& counters, RdtSampleBatch& batch)
{
    for (const auto& r : counters.telemetry) {
        TelemetrySample t;
        t.timeNs = batch.timeNs;
        t.group = group;
        t.package = r.package;
        t.event = r.event;
        t.flags = r.flags;
        auto [it, fresh] = m_previousTelemetry.try_emplace(std::make_tuple(group, r.package, r.event));
        auto& [prevTime, prevValue] = it->second;
        const bool bad = (r.flags & (SampleTelemetryError | SampleTelemetryUnavailable)) != 0;
        if (fresh && bad) { // no value to count from yet
            m_previousTelemetry.erase(it);
            batch.telemetry.push_back(std::move(t));
            continue;
        }
        if (fresh) {
            t.flags |= SampleFirst;
            prevTime = batch.timeNs;
            prevValue = r.value;
        } else if (!bad && batch.timeNs > prevTime) {
            if (r.value < prevValue)
                t.flags |= SampleCounterReset; // the group's RMID was reused or the region reset: no negative rate
            else
                t.perSecond = (r.value - prevValue) / (static_cast<double>(batch.timeNs - prevTime) * 1e-9);
            prevTime = batch.timeNs;
            prevValue = r.value;
        }
        // A bad read keeps the last good value, so the next good read spans the gap.
        t.value = bad ? prevValue : r.value;
        batch.telemetry.push_back(std::move(t));
    }
}

void Sampler::advanceCounter(CounterHistory& h, std::uint64_t raw, bool overflow, bool bad, bool unavailable,
    std::uint64_t timeNs, std::uint64_t bytesPerUnit, double maxUnits, double& bps, std::uint32_t& flags) const
{
    if (!bad && timeNs > h.timeNs) {
        const auto elapsed = timeNs - h.timeNs;
        // After a clear the counter restarted at zero: everything it holds is new, whatever the last read was.
        const auto d = h.cleared ? CounterDelta { raw, SampleCounterReset }
                                 : counterDelta(h.raw, raw, m_counterWidth, overflow, elapsed, maxUnits);
        h.cleared = false;
        const auto bytes = d.units * bytesPerUnit;
        bps = static_cast<double>(bytes) / (static_cast<double>(elapsed) * 1e-9);
        flags |= d.flags;
        h.bytes += bytes;
        h.raw = raw;
        h.timeNs = timeNs;
    }
    if (unavailable && m_unavailableClears) h.cleared = true;
}

Result<RdtSampleBatch> Sampler::poll(std::uint64_t timeNs)
{
    m_polls.fetch_add(1, std::memory_order_relaxed);
    auto fail = [this](const Error& e) -> Result<RdtSampleBatch> {
        m_errors.fetch_add(1, std::memory_order_relaxed);
        std::lock_guard lock(m_errorMutex);
        m_lastError = e.toString();
        return e;
    };
    std::vector<std::string> groups = m_config.groups;
    if (groups.empty()) {
        auto listed = m_backend.listGroups();
        if (!listed) return fail(listed.error());
        for (const auto& g : *listed)
            groups.push_back(g.path);
    }
    RdtSampleBatch batch;
    batch.timeNs = timeNs;
    batch.samples.reserve(groups.size() * 4);
    std::size_t failures = 0;
    Error firstError;
    auto all = m_backend.readCountersMany(groups);
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const auto& group = groups[gi];
        auto& counters = all[gi];
        if (!counters) {
            if (failures++ == 0) firstError = counters.error();
            batch.unread.push_back({ group, counters.error().toString() });
            continue;
        }
        const double maxUnits = m_config.plausibleMaxBps / static_cast<double>(counters->bytesPerUnit);
        for (const auto& c : counters->domains) {
            RdtSample s;
            s.timeNs = timeNs;
            s.group = group;
            s.domain = c.domain;
            s.node = c.node;
            s.occupancyBytes = c.occupancyBytes;
            s.flags = c.flags;
            if (c.mbmTotalOverflow || c.mbmLocalOverflow) s.flags |= SampleOverflowBit;
            auto [it, fresh] = m_previous.try_emplace(std::make_tuple(group, c.domain, c.node));
            Previous& p = it->second;
            if (fresh) {
                s.flags |= SampleFirst;
                p.total = { timeNs, c.mbmTotalRaw, c.mbmTotalRaw * counters->bytesPerUnit, false };
                p.local = { timeNs, c.mbmLocalRaw, c.mbmLocalRaw * counters->bytesPerUnit, false };
            } else {
                advanceCounter(p.total, c.mbmTotalRaw, c.mbmTotalOverflow, (c.flags & kMbmTotalUnread) != 0,
                    (c.flags & SampleMbmUnavailable) != 0, timeNs, counters->bytesPerUnit, maxUnits, s.mbmTotalBps,
                    s.flags);
                advanceCounter(p.local, c.mbmLocalRaw, c.mbmLocalOverflow, (c.flags & kMbmLocalUnread) != 0,
                    (c.flags & SampleMbmLocalUnavailable) != 0, timeNs, counters->bytesPerUnit, maxUnits, s.mbmLocalBps,
                    s.flags);
            }
            s.mbmTotalBytes = p.total.bytes;
            s.mbmLocalBytes = p.local.bytes;
            batch.samples.push_back(std::move(s));
        }
        addTelemetry(group, *counters, batch);
    }
    if (failures > 0 && failures == groups.size()) return fail(firstError);
    if (failures > 0) {
        m_errors.fetch_add(1, std::memory_order_relaxed);
        std::lock_guard lock(m_errorMutex);
        m_lastError = firstError.toString();
    }
    splitSncNodes(batch); // node readings (setSncNodeReadings): rows per node beside their L3 sums
    // One consumer, one path: the callback when one is set (the engine's event queue), else the queue.
    if (m_callback) {
        m_callback(batch);
        return running() ? RdtSampleBatch {} : batch;
    }
    if (!running()) {
        m_queue.push(batch); // pollOnce(): the caller gets the batch too
        return batch;
    }
    m_queue.push(std::move(batch)); // the thread: no copy
    return RdtSampleBatch {};
}

} // namespace rdt

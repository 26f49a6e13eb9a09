// SPDX-License-Identifier: GPL-3.0-or-later
#include "MetricsFeed.h"
#include "MetricsServer.h"

#include "core/Time.h"

#include <chrono>
#include <variant>

namespace rdt::metrics {

MetricsFeed::MetricsFeed(engine::CaptureService& service, std::string version, GroupLabeller labeller,
    std::uint64_t groupsEveryNs, GroupKeeper keeper, TmaCounter tma)
    : m_service(service)
    , m_publisher(std::move(version))
    , m_labeller(std::move(labeller))
    , m_keeper(std::move(keeper))
    , m_tma(std::move(tma))
    , m_groupsEveryNs(groupsEveryNs)
{ }

MetricsFeed::~MetricsFeed()
{
    stop();
}

Status MetricsFeed::start(std::uint64_t samplingIntervalNs)
{
    if (auto machine = m_service.machine())
        m_caps = machine->capabilities;
    else
        return machine.error();
    if (auto r = m_service.setSamplingInterval(samplingIntervalNs); !r.ok) return r.error();
    refreshGroups();
    publish();
    m_service.setEventWakeup([this] {
        {
            std::lock_guard lock(m_wakeMutex);
            m_pending = true;
        }
        m_wake.notify_one();
    });
    if (auto r = m_service.startSampling(); !r.ok) return r.error();
    m_thread = std::thread([this] { run(); });
    return {};
}

void MetricsFeed::stop()
{
    if (!m_thread.joinable()) return;
    m_service.stopSampling();
    {
        std::lock_guard lock(m_wakeMutex);
        m_stop = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

std::shared_ptr<const std::vector<MetricFamily>> MetricsFeed::latest() const
{
    return m_publisher.latest();
}

void MetricsFeed::run()
{
    while (!m_stop.load()) {
        {
            std::unique_lock lock(m_wakeMutex);
            m_wake.wait_for(lock, std::chrono::seconds(1), [this] { return m_pending || m_stop.load(); });
            m_pending = false;
        }
        bool changed = false;
        for (auto& event : m_service.drainEvents()) {
            if (auto* batch = std::get_if<RdtSampleBatch>(&event)) {
                m_publisher.state().addBatch(*batch, unixSeconds());
                m_batches.fetch_add(1);
                changed = true;
            } else if (std::holds_alternative<engine::EngineError>(event)) {
                m_publisher.state().addPollError();
                changed = true;
            }
        }
        if (monotonicNs() - m_lastGroupsNs >= m_groupsEveryNs) {
            refreshGroups();
            changed = true;
        }
        if (changed && m_tma) countTma(); // once per sample period: the batches woke the feed
        if (changed) publish();
    }
}

void MetricsFeed::refreshGroups()
{
    m_lastGroupsNs = monotonicNs();
    const bool withTasks = m_labeller || m_keeper || m_tma;
    auto groups = m_service.snapshot(withTasks);
    if (!groups.result.ok) return; // keep the last allocations; the sampler reports its own errors
    if (m_keeper && m_keeper(groups)) {
        groups = m_service.snapshot(withTasks); // the keeper made or removed groups: label what is there now
        if (!groups.result.ok) return;
    }
    m_publisher.state().setGroups(groups, m_caps);
    m_groups.clear();
    for (const auto& g : groups.groups)
        m_groups[g.info.path] = g.tasks;
    std::erase_if(m_tmaCreated, [&](const auto& entry) { return !m_groups.contains(entry.first); });
    if (m_labeller)
        for (const auto& g : groups.groups)
            m_publisher.state().setGroupLabels(g.info.path, m_labeller(g.tasks));
}

void MetricsFeed::countTma()
{
    for (const auto& [group, tasks] : m_groups) {
        auto slots = m_tma.count(group, tasks);
        if (!slots) continue;
        const double created = m_tmaCreated.try_emplace(group, unixSeconds()).first->second;
        m_publisher.state().setTmaSlots(group, *slots, created);
    }
    if (m_tma.endRound) m_tma.endRound();
}

void MetricsFeed::publish()
{
    m_publisher.publish();
}

} // namespace rdt::metrics

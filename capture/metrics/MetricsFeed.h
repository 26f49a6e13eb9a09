// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MetricsPublisher.h"
#include "engine/CaptureService.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace rdt::metrics {

/// Extra labels for a group from its task PIDs (Kubernetes pod labels, KubernetesLabels.h); empty = none.
using GroupLabeller = std::function<Labels(const std::vector<unsigned>& pids)>;
/// Makes or removes groups of the agent's own from a snapshot with tasks (PodGroups.h); true when it changed any.
using GroupKeeper = std::function<bool(const engine::GroupsSnapshot& groups)>;

/// --metrics-tma: `count` gives a group's cumulative TMA slots since its counting began, or none when it is not
/// counted (the group's task IDs as of the last groups snapshot); `endRound` (optional) follows each sample period's
/// counts of every group, so a counter can close what it opened for groups no longer asked for (pods gone).
struct TmaCounter {
    std::function<std::optional<TmaSlots>(const std::string& group, const std::vector<unsigned>& tasks)> count;
    std::function<void()> endRound;
    explicit operator bool() const { return static_cast<bool>(count); }
};

/// Keeps the metrics current without ever holding up the sampler: the capture service samples on its own thread
/// and queues batches; this feed's thread drains them, updates a MetricsState and publishes an immutable copy of
/// its families. A scrape only copies the published pointer under a short lock (latest()).
class MetricsFeed {
public:
    /// The service must outlive the feed. `groupsEveryNs`: how often allocations and pod labels are re-read.
    MetricsFeed(engine::CaptureService& service, std::string version, GroupLabeller labeller = {},
        std::uint64_t groupsEveryNs = 2'000'000'000, GroupKeeper keeper = {}, TmaCounter tma = {});
    ~MetricsFeed(); ///< stops sampling and the thread
    MetricsFeed(const MetricsFeed&) = delete;
    MetricsFeed& operator=(const MetricsFeed&) = delete;

    /// Sets the sampling interval, starts sampling and the feed's thread.
    Status start(std::uint64_t samplingIntervalNs);
    void stop();

    /// The families as of the last published batch (never null after start()).
    std::shared_ptr<const std::vector<MetricFamily>> latest() const;
    /// Batches taken so far (tests wait for the first few).
    std::uint64_t batches() const { return m_batches.load(); }

private:
    void run();
    void refreshGroups();
    void publish();
    void countTma();

    engine::CaptureService& m_service;
    MetricsPublisher m_publisher;
    GroupLabeller m_labeller;
    GroupKeeper m_keeper;
    TmaCounter m_tma;
    std::map<std::string, std::vector<unsigned>> m_groups; ///< the last snapshot's groups and tasks (for countTma)
    std::map<std::string, double> m_tmaCreated; ///< group -> when its TMA counting began (Unix time)
    std::uint64_t m_groupsEveryNs;
    std::uint64_t m_lastGroupsNs = 0;
    Capabilities m_caps;

    std::mutex m_wakeMutex;
    std::condition_variable m_wake;
    bool m_pending = false;
    std::atomic<bool> m_stop { false };
    std::atomic<std::uint64_t> m_batches { 0 };
    std::thread m_thread;
};

} // namespace rdt::metrics

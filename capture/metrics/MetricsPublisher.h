// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MetricsState.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rdt::metrics {

/// The metrics state and the families a scrape serves. One thread feeds state() and calls publish() (the agent's
/// MetricsFeed, or `rdtscope-cli record --metrics`'s loop); the HTTP server's threads only copy the published
/// pointer under a short lock (latest()), so a scrape never waits for the sampler nor the sampler for a scrape.
class MetricsPublisher {
public:
    explicit MetricsPublisher(std::string version)
        : m_state(std::move(version))
    { }

    /// The state to feed: only from the feeding thread.
    MetricsState& state() { return m_state; }
    /// Makes the state as it is now what scrapes get.
    void publish()
    {
        auto families = std::make_shared<const std::vector<MetricFamily>>(m_state.families());
        std::lock_guard lock(m_mutex);
        m_published = std::move(families);
    }
    /// The families as of the last publish() (null before the first).
    std::shared_ptr<const std::vector<MetricFamily>> latest() const
    {
        std::lock_guard lock(m_mutex);
        return m_published;
    }

private:
    MetricsState m_state;
    mutable std::mutex m_mutex;
    std::shared_ptr<const std::vector<MetricFamily>> m_published;
};

} // namespace rdt::metrics

// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuAggregationQueue.h"

#include <QThreadPool>
#include <QTimer>

#include <mutex>
#include <optional>

using namespace rdt::pmu;

/// A finished job's result, left by the worker for the GUI thread (a queued call or waitForAll takes it).
struct PmuAggregationQueue::Slot {
    struct Finished {
        quint64 generation = 0;
        bool full = true;
        Aggregates aggregates;
    };
    std::mutex mutex;
    std::optional<Finished> result;
};

PmuAggregationQueue::PmuAggregationQueue(JobSource source, ResultSink sink, AfterJob afterJob, QObject* parent)
    : QObject(parent)
    , m_source(std::move(source))
    , m_sink(std::move(sink))
    , m_afterJob(std::move(afterJob))
    , m_pool(new QThreadPool(this))
    , m_slot(std::make_shared<Slot>())
    , m_busyTimer(new QTimer(this))
{
    m_pool->setMaxThreadCount(1);
    // Idle worker threads exit after a while; keep the aggregation thread around for a running simulation.
    m_pool->setExpiryTimeout(30'000);
    m_busyTimer->setSingleShot(true);
    connect(m_busyTimer, &QTimer::timeout, this, [this] {
        if (!m_running || !m_jobUser || m_busyShown) return;
        m_busyShown = true;
        Q_EMIT busyChanged(true);
    });
}

PmuAggregationQueue::~PmuAggregationQueue()
{
    m_pool->waitForDone(); // jobs post to this object
}

void PmuAggregationQueue::request(bool full, bool user)
{
    ++m_generation; // whatever runs now describes an older request
    m_queuedFull = m_queuedFull || full;
    m_queuedUser = m_queuedUser || user;
    if (m_running) {
        m_queued = true; // one job at a time: the newest request runs when the current one is done
        return;
    }
    start();
}

void PmuAggregationQueue::supersede()
{
    ++m_generation; // supersedes whatever runs or is queued
    m_queued = m_queuedFull = false;
}

void PmuAggregationQueue::start()
{
    Job job = m_source();
    job.params.full = m_queuedFull;
    m_jobUser = m_queuedUser;
    m_queuedFull = m_queuedUser = m_queued = false;
    m_running = true;
    m_busyData = job.data.get();
    // Only a range, filter or data change says "Re-aggregating"; a running capture's steps re-aggregate quietly.
    if (m_jobUser && !m_busyShown && !m_busyTimer->isActive()) m_busyTimer->start(m_busyDelayMs);
    const quint64 generation = m_generation;
    m_pool->start([this, data = std::move(job.data), slot = m_slot, p = job.params, generation]() mutable {
        // The worker reads the data the GUI thread does not mutate while m_busyData points at it (steps wait).
        Slot::Finished done { generation, p.full, {} };
        aggregatePmu(*data, p, done.aggregates);
        data.reset();
        {
            std::lock_guard lock(slot->mutex);
            slot->result = std::move(done);
        }
        QMetaObject::invokeMethod(
            this, [this] { finish(); }, Qt::QueuedConnection);
    });
}

void PmuAggregationQueue::finish()
{
    std::optional<Slot::Finished> done;
    {
        std::lock_guard lock(m_slot->mutex);
        done.swap(m_slot->result);
    }
    if (!done) return; // waitForAll took it already
    m_running = false;
    m_busyData = nullptr;
    if (done->generation == m_generation) {
        m_sink(done->aggregates, done->full);
    } else {
        ++m_discarded; // a newer request is queued; it recomputes what this one would have
        m_queuedFull = m_queuedFull || done->full;
        m_queuedUser = m_queuedUser || m_jobUser;
    }
    m_afterJob();
    if (!m_running && m_queued) start();
    if (!m_running || !m_jobUser) {
        m_busyTimer->stop();
        if (m_busyShown) {
            m_busyShown = false;
            Q_EMIT busyChanged(false);
        }
    }
}

void PmuAggregationQueue::waitForDone()
{
    m_pool->waitForDone();
}

void PmuAggregationQueue::waitForAll()
{
    while (m_running) {
        m_pool->waitForDone();
        finish(); // may start the next job (a queued request or deferred steps)
    }
}

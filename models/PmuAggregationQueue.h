// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PmuAggregate.h"
#include "PmuData.h"

#include <QObject>

#include <functional>
#include <memory>

class QThreadPool;
class QTimer;

/// Runs a PmuSession's aggregations on a worker, one job at a time. A request returns at once; the result reaches the
/// GUI thread later. Each request bumps a generation; a finished job whose generation is no longer current is
/// dropped and the newest request runs next, so a stale result never replaces a newer one. A job that runs longer
/// than busyDelayMs on a user's request says so (busyChanged). Its own class: scheduling work on a worker and dropping
/// stale results is apart from what the session aggregates (a JobSource says that when a job starts).
class PmuAggregationQueue : public QObject {
    Q_OBJECT
public:
    struct Job {
        std::shared_ptr<rdt::pmu::PmuData> data; ///< read by the worker: not mutated while reading(data) is true
        rdt::pmu::AggregateParams params; ///< `full` is set by the queue
    };
    using JobSource = std::function<Job()>;
    /// The current request's result, on the GUI thread.
    using ResultSink = std::function<void(rdt::pmu::Aggregates& result, bool full)>;
    /// Called on the GUI thread after every finished job, before a queued request starts (the session steps the
    /// capture steps it deferred while the job read the data; they may request again).
    using AfterJob = std::function<void()>;

    PmuAggregationQueue(JobSource source, ResultSink sink, AfterJob afterJob, QObject* parent);
    ~PmuAggregationQueue() override;

    /// Requests a job. full: everything, else only the latency tables; user: a range, filter or data change (may show
    /// busy), not a running capture's step.
    void request(bool full, bool user);
    /// A result arrived otherwise (an import aggregated on its own worker): whatever runs or is queued is stale.
    void supersede();
    /// True while a job runs or waits to run.
    bool running() const { return m_running; }
    /// True while the running job reads `data`.
    bool reading(const rdt::pmu::PmuData* data) const { return m_running && m_busyData == data; }
    /// Blocks until the running job is done (its result is not applied yet).
    void waitForDone();
    /// Blocks until no job runs or is pending and applies the last result.
    void waitForAll();
    quint64 discarded() const { return m_discarded; }
    quint64 generation() const { return m_generation; }
    void setBusyDelayMs(int ms) { m_busyDelayMs = ms; }

Q_SIGNALS:
    /// A user's job has been running for busyDelayMs (true) or is done (false).
    void busyChanged(bool busy);

private:
    struct Slot;
    void start();
    void finish();

    JobSource m_source;
    ResultSink m_sink;
    AfterJob m_afterJob;
    QThreadPool* m_pool; ///< one worker
    std::shared_ptr<Slot> m_slot; ///< where the worker leaves a finished job's result
    quint64 m_generation = 0;
    bool m_running = false;
    bool m_queued = false; ///< a request came while a job ran: start one when it is done
    bool m_queuedFull = false; ///< the next job recomputes everything, not only the latency tables
    bool m_queuedUser = false; ///< the next job answers a user's change
    bool m_jobUser = false; ///< the running job answers a user's change
    const rdt::pmu::PmuData* m_busyData = nullptr; ///< what the running job reads
    bool m_busyShown = false;
    int m_busyDelayMs = 150;
    QTimer* m_busyTimer;
    quint64 m_discarded = 0;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuSession.h"

#include "PmuImport.h"
#include "core/Time.h"

#include <QFileInfo>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <utility>

using namespace rdt::pmu;

/// A finished job's result, left by the worker for the GUI thread (a queued call or waitForAggregation takes it).
struct PmuSession::AggregationSlot {
    struct Finished {
        quint64 generation = 0;
        bool full = true;
        Aggregates aggregates;
    };
    std::mutex mutex;
    std::optional<Finished> result;
};

PmuSession::PmuSession(QObject* parent)
    : QObject(parent)
    , m_data(std::make_shared<PmuData>())
    , m_pool(new QThreadPool(this))
    , m_aggPool(new QThreadPool(this))
    , m_slot(std::make_shared<AggregationSlot>())
    , m_busyTimer(new QTimer(this))
    , m_clock([] { return rdt::monotonicNs(); })
    , m_simTimer(new QTimer(this))
{
    m_pool->setMaxThreadCount(1);
    m_aggPool->setMaxThreadCount(1);
    // Idle worker threads exit after a while; keep the aggregation thread around for a running simulation.
    m_aggPool->setExpiryTimeout(30'000);
    m_busyTimer->setSingleShot(true);
    connect(m_busyTimer, &QTimer::timeout, this, [this] {
        if (!m_aggRunning || !m_jobUser || m_busyShown) return;
        m_busyShown = true;
        Q_EMIT aggregatingChanged(true);
    });
    connect(m_simTimer, &QTimer::timeout, this, &PmuSession::stepSimulation);
}

PmuSession::~PmuSession()
{
    cancelImport();
    m_pool->waitForDone();
    m_aggPool->waitForDone(); // jobs read m_data and post to this object
}

void PmuSession::setData(PmuData data)
{
    replaceData(std::make_shared<PmuData>(std::move(data)), nullptr);
}

void PmuSession::replaceData(std::shared_ptr<PmuData> data, std::shared_ptr<Aggregates> prepared)
{
    // A running job keeps its own reference to the old data and its result is dropped (generation).
    m_data = std::move(data);
    const auto span = m_data->timeSpan();
    m_t0 = span.first;
    m_t1 = span.second;
    m_hasRange = false;
    m_bucket = m_level = -1;
    m_deferredSteps = 0;
    m_anchors.clear();
    m_rangeFromTimeline = false;
    setTimelineNote({});
    Q_EMIT dataReset();
    Q_EMIT timeRangeChanged(0, duration(), false);
    if (!prepared) {
        requestAggregation(true);
        return;
    }
    ++m_aggGeneration; // supersedes whatever runs or is queued
    m_aggQueued = m_queuedFull = false;
    applyAggregates(*prepared, true);
}

void PmuSession::clear()
{
    stopSimulation();
    m_run.reset();
    setData(PmuData {});
}

QString PmuSession::sourceLabel() const
{
    const QString name = QString::fromStdString(m_data->name);
    switch (m_data->kind) {
    case PmuSourceKind::Simulated:
        return tr("Simulated: %1").arg(name);
    case PmuSourceKind::Imported:
        return tr("perf.data: %1").arg(name);
    case PmuSourceKind::Live:
        return tr("Live: %1").arg(name);
    case PmuSourceKind::None:
        break;
    }
    return tr("No PMU data");
}

double PmuSession::duration() const
{
    return m_t1 > m_t0 ? static_cast<double>(m_t1 - m_t0) * 1e-9 : 0.0;
}

double PmuSession::secondsOf(std::uint64_t timeNs) const
{
    return secondsSince(m_t0, timeNs);
}

void PmuSession::setTimeRange(double from, double to)
{
    applyTimeRange(from, to, false);
}

void PmuSession::applyTimeRange(double from, double to, bool fromTimeline)
{
    if (from > to) std::swap(from, to);
    m_rangeFromTimeline = fromTimeline; // set before timeRangeChanged: the timeline does not mirror its own range
    m_hasRange = true;
    m_from = from;
    m_to = to;
    Q_EMIT timeRangeChanged(from, to, true);
    reaggregate();
}

void PmuSession::clearTimeRange()
{
    m_hasRange = false;
    m_rangeFromTimeline = false;
    Q_EMIT timeRangeChanged(0, duration(), false);
    reaggregate();
}

void PmuSession::setLatencyFilter(int bucket, int level)
{
    if (bucket == m_bucket && level == m_level) return;
    m_bucket = bucket;
    m_level = level;
    requestAggregation(false);
}

void PmuSession::reaggregate()
{
    requestAggregation(true);
}

void PmuSession::requestAggregation(bool full, bool user)
{
    ++m_aggGeneration; // whatever runs now describes an older request
    m_queuedFull = m_queuedFull || full;
    m_queuedUser = m_queuedUser || user;
    if (m_aggRunning) {
        m_aggQueued = true; // one job at a time: the newest request runs when the current one is done
        return;
    }
    startAggregation();
}

void PmuSession::startAggregation()
{
    AggregateParams p;
    p.t0 = m_t0;
    p.hasRange = m_hasRange;
    p.from = m_from;
    p.to = m_to;
    p.bucket = m_bucket;
    p.level = m_level;
    p.full = m_queuedFull;
    m_jobUser = m_queuedUser;
    m_queuedFull = m_queuedUser = m_aggQueued = false;
    m_aggRunning = true;
    m_busyData = m_data.get();
    // Only a range, filter or data change says "Re-aggregating"; a running capture's steps re-aggregate quietly.
    if (m_jobUser && !m_busyShown && !m_busyTimer->isActive()) m_busyTimer->start(m_busyDelayMs);
    const quint64 generation = m_aggGeneration;
    m_aggPool->start([this, data = m_data, slot = m_slot, p, generation]() mutable {
        // The worker reads the data the GUI thread does not mutate while m_busyData points at it (steps wait).
        AggregationSlot::Finished done { generation, p.full, {} };
        aggregatePmu(*data, p, done.aggregates);
        data.reset();
        {
            std::lock_guard lock(slot->mutex);
            slot->result = std::move(done);
        }
        QMetaObject::invokeMethod(
            this, [this] { finishAggregation(); }, Qt::QueuedConnection);
    });
}

void PmuSession::finishAggregation()
{
    std::optional<AggregationSlot::Finished> done;
    {
        std::lock_guard lock(m_slot->mutex);
        done.swap(m_slot->result);
    }
    if (!done) return; // waitForAggregation took it already
    m_aggRunning = false;
    m_busyData = nullptr;
    if (done->generation == m_aggGeneration) {
        applyAggregates(done->aggregates, done->full);
    } else {
        ++m_discarded; // a newer request is queued; it recomputes what this one would have
        m_queuedFull = m_queuedFull || done->full;
        m_queuedUser = m_queuedUser || m_jobUser;
    }
    if (const int steps = std::exchange(m_deferredSteps, 0); steps > 0) {
        bool stepped = false;
        for (int i = 0; i < steps; ++i)
            stepped = stepData() || stepped;
        if (stepped) requestAggregation(true, false);
    }
    if (!m_aggRunning && m_aggQueued) startAggregation();
    if (!m_aggRunning || !m_jobUser) {
        m_busyTimer->stop();
        if (m_busyShown) {
            m_busyShown = false;
            Q_EMIT aggregatingChanged(false);
        }
    }
}

void PmuSession::applyAggregates(Aggregates& a, bool full)
{
    // GUI thread, cheap: moves prepared reports in; the views reset their models from them on aggregated().
    if (full) {
        m_graph = std::move(a.graph);
        m_latency = std::move(a.latency);
        m_rangeTma = std::move(a.tma);
        m_rangeBranches = a.rangeBranches;
    }
    m_latencyTables = std::move(a.tables);
    m_lastWorkerMs = a.workerMs;
    Q_EMIT aggregated();
}

const TmaBreakdown& PmuSession::rangeTma(std::size_t series) const
{
    static const TmaBreakdown none;
    return series < m_rangeTma.size() ? m_rangeTma[series] : none;
}

void PmuSession::setTimelineNote(const QString& note)
{
    if (note == m_timelineNote) return;
    m_timelineNote = note;
    Q_EMIT timelineNoteChanged(note);
}

std::optional<std::uint64_t> PmuSession::dataTimeOfMonotonic(std::uint64_t monoNs) const
{
    switch (m_data->kind) {
    case PmuSourceKind::Live:
        return monoNs;
    case PmuSourceKind::Simulated: {
        if (m_anchors.empty()) return std::nullopt;
        const auto it = std::upper_bound(m_anchors.begin(), m_anchors.end(), monoNs,
            [](std::uint64_t v, const std::pair<std::uint64_t, std::uint64_t>& a) { return v < a.first; });
        if (it == m_anchors.begin()) return it->second; // before the first step: nothing earlier was simulated
        if (it == m_anchors.end()) return m_anchors.back().second;
        const auto& [w0, p0] = *(it - 1);
        const auto& [w1, p1] = *it;
        if (w1 == w0 || p1 <= p0) return p1;
        const double f = static_cast<double>(monoNs - w0) / static_cast<double>(w1 - w0);
        return p0 + static_cast<std::uint64_t>(std::llround(f * static_cast<double>(p1 - p0)));
    }
    case PmuSourceKind::Imported:
    case PmuSourceKind::None:
        break;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> PmuSession::monotonicOfDataTime(std::uint64_t dataNs) const
{
    switch (m_data->kind) {
    case PmuSourceKind::Live:
        return dataNs;
    case PmuSourceKind::Simulated: {
        if (m_anchors.empty()) return std::nullopt;
        // The first wall time at which the simulation reached dataNs (between steps it stands still).
        const auto it = std::lower_bound(m_anchors.begin(), m_anchors.end(), dataNs,
            [](const std::pair<std::uint64_t, std::uint64_t>& a, std::uint64_t v) { return a.second < v; });
        if (it == m_anchors.begin()) return it->first;
        if (it == m_anchors.end()) return m_anchors.back().first;
        const auto& [w0, p0] = *(it - 1);
        const auto& [w1, p1] = *it;
        if (p1 == p0) return w0;
        const double f = static_cast<double>(dataNs - p0) / static_cast<double>(p1 - p0);
        return w0 + static_cast<std::uint64_t>(std::llround(f * static_cast<double>(w1 - w0)));
    }
    case PmuSourceKind::Imported:
    case PmuSourceKind::None:
        break;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> PmuSession::dataTimeOfSeconds(double seconds) const
{
    const double ns = static_cast<double>(m_t0) + seconds * 1e9;
    return ns < 0 ? 0 : static_cast<std::uint64_t>(std::llround(ns));
}

bool PmuSession::setTimelineRange(std::uint64_t fromMonoNs, std::uint64_t toMonoNs)
{
    if (fromMonoNs > toMonoNs) std::swap(fromMonoNs, toMonoNs);
    const auto from = dataTimeOfMonotonic(fromMonoNs), to = dataTimeOfMonotonic(toMonoNs);
    if (!from || !to) {
        if (m_data->kind == PmuSourceKind::Imported)
            setTimelineNote(tr("The timeline's range does not apply to this imported file: its clock is the recording "
                               "machine's, which cannot be related to this host's timeline. The PMU views stay "
                               "unfiltered; drag across the TMA plot to choose a range of the file."));
        else if (m_data->kind == PmuSourceKind::Simulated)
            setTimelineNote(tr("The timeline's range does not apply yet: the simulated PMU has produced no samples."));
        else
            setTimelineNote({});
        if (m_rangeFromTimeline) clearTimeRange();
        return false;
    }
    setTimelineNote({});
    applyTimeRange(secondsOf(*from), secondsOf(*to), true);
    return true;
}

void PmuSession::rejectTimelineRange(const QString& why)
{
    if (m_data->kind != PmuSourceKind::None) setTimelineNote(why);
    if (m_rangeFromTimeline) clearTimeRange();
}

void PmuSession::clearTimelineRange()
{
    setTimelineNote({});
    if (m_rangeFromTimeline && m_hasRange) clearTimeRange();
    m_rangeFromTimeline = false;
}

void PmuSession::waitForAggregation()
{
    while (m_aggRunning) {
        m_aggPool->waitForDone();
        finishAggregation(); // may start the next job (a queued request or deferred steps)
    }
}

void PmuSession::openPerfData(const QString& path, const QStringList& symbolDirs)
{
    cancelImport();
    m_pool->waitForDone();
    stopSimulation();
    m_run.reset();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    m_importing = true;
    const int generation = ++m_importGeneration;
    PmuImportOptions options;
    for (const QString& d : symbolDirs)
        options.symbolDirs.push_back(d.toStdString());
    const std::string file = path.toStdString();
    m_pool->start([this, cancel, generation, options, file]() mutable {
        // Runs on the worker: touches only its own locals and the shared cancel flag; results go back queued.
        options.progress = [this, cancel](std::uint64_t done, std::uint64_t total) {
            QMetaObject::invokeMethod(
                this,
                [this, done, total] { Q_EMIT importProgress(static_cast<qint64>(done), static_cast<qint64>(total)); },
                Qt::QueuedConnection);
            return !cancel->load();
        };
        auto result = std::make_shared<rdt::Result<PmuData>>(importPerfData(file, options));
        // The first aggregation (whole file, no filter) runs here too, so the import arrives ready to show.
        std::shared_ptr<PmuData> data;
        auto prepared = std::make_shared<Aggregates>();
        if (*result) {
            data = std::make_shared<PmuData>(std::move(result->value()));
            AggregateParams p;
            p.t0 = data->timeSpan().first;
            aggregatePmu(*data, p, *prepared);
        }
        QMetaObject::invokeMethod(
            this,
            [this, result, data, prepared, generation, file] {
                if (generation != m_importGeneration) return; // a newer import replaced this one
                m_importing = false;
                if (!data) {
                    Q_EMIT importFinished(false, QString::fromStdString(result->error().toString()));
                    return;
                }
                replaceData(data, prepared);
                m_importedFile = QString::fromStdString(file);
                Q_EMIT importFinished(true,
                    tr("Loaded %1: %2 branch samples, %3 load samples")
                        .arg(QFileInfo(QString::fromStdString(file)).fileName())
                        .arg(m_data->branches.size())
                        .arg(m_data->loads.size()));
            },
            Qt::QueuedConnection);
    });
}

void PmuSession::cancelImport()
{
    if (m_cancel) m_cancel->store(true);
}

void PmuSession::waitForImport()
{
    m_pool->waitForDone();
}

void PmuSession::updateSpan()
{
    const auto span = m_data->timeSpan();
    m_t0 = span.first;
    m_t1 = span.second;
    if (!m_hasRange) Q_EMIT timeRangeChanged(0, duration(), false);
}

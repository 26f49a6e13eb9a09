// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuSession.h"

#include "PmuAggregationQueue.h"
#include "PmuImport.h"
#include "core/Time.h"

#include <QFileInfo>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace rdt::pmu;

PmuSession::PmuSession(QObject* parent)
    : QObject(parent)
    , m_data(std::make_shared<PmuData>())
    , m_pool(new QThreadPool(this))
    , m_aggregation(new PmuAggregationQueue(
          [this] {
              AggregateParams p;
              p.t0 = m_t0;
              p.hasRange = m_hasRange;
              p.from = m_from - offsetSeconds(); // the aggregation counts from the first sample
              p.to = m_to - offsetSeconds();
              p.bucket = m_bucket;
              p.level = m_level;
              p.stacks = m_stackFilter;
              return PmuAggregationQueue::Job { m_data, p };
          },
          [this](Aggregates& a, bool full) { applyAggregates(a, full); }, [this] { stepDeferred(); }, this))
    , m_clock([] { return rdt::monotonicNs(); })
    , m_simTimer(new QTimer(this))
{
    m_pool->setMaxThreadCount(1);
    m_aggregation->setBusyDelayMs(kBusyDelayMs);
    connect(m_aggregation, &PmuAggregationQueue::busyChanged, this, &PmuSession::aggregatingChanged);
    connect(m_simTimer, &QTimer::timeout, this, &PmuSession::stepSimulation);
}

PmuSession::~PmuSession()
{
    cancelImport();
    m_pool->waitForDone();
    m_aggregation->waitForDone(); // jobs read m_data and post to the queue
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
    m_stackFilter = {};
    m_deferredSteps = 0;
    m_clockMap.clear();
    m_offset.reset();
    m_rangeFromTimeline = false;
    setTimelineNote({});
    Q_EMIT dataReset();
    Q_EMIT timeRangeChanged(startSeconds(), endSeconds(), false);
    if (!prepared) {
        requestAggregation(true);
        return;
    }
    m_aggregation->supersede();
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
    return secondsSince(m_t0, timeNs) + offsetSeconds();
}

void PmuSession::setWindowClock(std::function<std::optional<double>(std::uint64_t monoNs)> secondsOfMonotonic)
{
    m_windowClock = std::move(secondsOfMonotonic);
    m_offset.reset();
}

bool PmuSession::onWindowClock() const
{
    (void)offsetSeconds(); // places the data on the window's clock when it can
    return m_offset && m_offset->first == m_t0;
}

double PmuSession::offsetSeconds() const
{
    if (m_offset && m_offset->first == m_t0) return m_offset->second;
    if (!m_windowClock || m_t1 <= m_t0) return 0; // no clock to place the data on, or no data yet
    const auto mono = monotonicOfDataTime(m_t0); // none for an imported file: its own seconds
    if (!mono) return 0;
    const auto seconds = m_windowClock(*mono);
    if (!seconds) return 0; // the timelines have no samples yet: asked again later
    m_offset = std::make_pair(m_t0, *seconds);
    return *seconds;
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
    Q_EMIT timeRangeChanged(startSeconds(), endSeconds(), false);
    reaggregate();
}

void PmuSession::setLatencyFilter(int bucket, int level)
{
    if (bucket == m_bucket && level == m_level) return;
    m_bucket = bucket;
    m_level = level;
    requestAggregation(false);
}

void PmuSession::setStackFilter(std::optional<std::uint32_t> tid, std::optional<std::uint32_t> cpu)
{
    if (tid == m_stackFilter.tid && cpu == m_stackFilter.cpu) return;
    m_stackFilter.tid = tid;
    m_stackFilter.cpu = cpu;
    Q_EMIT stackFilterChanged();
    requestAggregation(true);
}

void PmuSession::reaggregate()
{
    requestAggregation(true);
}

void PmuSession::requestAggregation(bool full, bool user)
{
    m_aggregation->request(full, user);
}

bool PmuSession::aggregating() const
{
    return m_aggregation->running();
}

quint64 PmuSession::discardedAggregations() const
{
    return m_aggregation->discarded();
}

quint64 PmuSession::aggregationGeneration() const
{
    return m_aggregation->generation();
}

void PmuSession::setBusyDelayMs(int ms)
{
    m_aggregation->setBusyDelayMs(ms);
}

void PmuSession::stepDeferred()
{
    if (const int steps = std::exchange(m_deferredSteps, 0); steps > 0) {
        bool stepped = false;
        for (int i = 0; i < steps; ++i)
            stepped = stepData() || stepped;
        if (stepped) requestAggregation(true, false);
    }
}

void PmuSession::applyAggregates(Aggregates& a, bool full)
{
    // GUI thread, cheap: moves prepared reports in; the views reset their models from them on aggregated().
    if (full) {
        m_graph = std::move(a.graph);
        m_callTree = std::move(a.callTree);
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
    case PmuSourceKind::Simulated:
        return m_clockMap.simulatedOf(monoNs);
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
    case PmuSourceKind::Simulated:
        return m_clockMap.monotonicOf(dataNs);
    case PmuSourceKind::Imported:
    case PmuSourceKind::None:
        break;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> PmuSession::dataTimeOfSeconds(double seconds) const
{
    const double ns = static_cast<double>(m_t0) + (seconds - offsetSeconds()) * 1e9;
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
    // On the window's time base the timeline's seconds are this session's seconds: the range is the same numbers on
    // every page. Without one, the range is where the data's own clock puts the two times.
    const auto windowFrom = onWindowClock() ? m_windowClock(fromMonoNs) : std::nullopt;
    const auto windowTo = windowFrom ? m_windowClock(toMonoNs) : std::nullopt;
    if (windowFrom && windowTo)
        applyTimeRange(*windowFrom, *windowTo, true);
    else
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
    m_aggregation->waitForAll();
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
    if (!m_hasRange) Q_EMIT timeRangeChanged(startSeconds(), endSeconds(), false);
}

bool PmuSession::startSimulation(
    const PmuSimOptions& options, int intervalMs, std::uint64_t cyclesPerStep, QString* error)
{
    return startRun(simulatedRequest(options, intervalMs, cyclesPerStep), {}, intervalMs, error);
}

void PmuSession::setEngine(std::shared_ptr<rdt::engine::Engine> engine)
{
    stopSimulation();
    m_run.reset();
    m_engines.set(std::move(engine));
}

void PmuSession::setEngineFactory(EngineFactory factory)
{
    stopSimulation();
    m_run.reset();
    m_engines.setFactory(std::move(factory));
}

bool PmuSession::startLive(PmuRecipeKind kind, const PerfTarget& target, int intervalMs, QString* error)
{
    const std::string what = target.systemWide ? "system-wide"
        : !target.command.empty()              ? "command " + target.command.front()
                                  : "attached to PID " + std::to_string(target.pids.empty() ? 0 : target.pids.front());
    return startRun(liveRequest(kind, target), what, intervalMs, error);
}

bool PmuSession::startRun(
    const rdt::engine::PmuRequest& request, const std::string& what, int intervalMs, QString* error)
{
    stopSimulation();
    m_run.reset(); // a stopped simulation the user could still step
    auto engine = m_engines.acquire(error);
    if (!engine) return false;
    auto run = PmuCaptureRun::start(std::move(engine), request);
    if (!run) {
        if (error) *error = QString::fromStdString(run.error().toString());
        return false;
    }
    m_run = std::move(run.value());
    setData(m_run->makeData(what));
    m_simTimer->start(intervalMs);
    Q_EMIT simulationChanged(true);
    return true;
}

void PmuSession::followCapture(std::shared_ptr<rdt::engine::Engine> engine, const rdt::engine::PmuCaptureInfo& info,
    rdt::engine::PmuCaptureKind kind, int intervalMs)
{
    stopSimulation();
    m_run = PmuCaptureRun::follow(std::move(engine), info, kind);
    setData(m_run->makeData({}));
    m_simTimer->start(intervalMs);
    Q_EMIT simulationChanged(true);
}

std::optional<std::uint32_t> PmuSession::followedCapture() const
{
    if (m_run && m_run->following()) return m_run->info().id;
    return std::nullopt;
}

std::optional<std::uint32_t> PmuSession::shownCapture() const
{
    if (m_run) return m_run->info().id;
    return std::nullopt;
}

void PmuSession::stopSimulation()
{
    if (!m_simTimer->isActive()) return;
    m_simTimer->stop();
    // A live capture is over once stopped; a followed one is not ours to step on (its engine may go next).
    if (m_run && (!m_run->simulated() || m_run->following())) {
        // What arrived since the last step. A job reading this data finishes first (at most one aggregation).
        if (m_aggregation->reading(m_data.get())) m_aggregation->waitForDone();
        m_run->stop(*m_data);
        m_run.reset(); // the engine closed the events (a launched command keeps running)
        updateSpan();
        requestAggregation(true);
    }
    Q_EMIT simulationChanged(false);
}

bool PmuSession::simulating() const
{
    return m_simTimer->isActive();
}

void PmuSession::stepSimulation()
{
    if (!m_run) return;
    if (m_aggregation->reading(m_data.get())) {
        ++m_deferredSteps; // the worker reads m_data: step when it is done (stepDeferred)
        return;
    }
    if (stepData()) requestAggregation(true, false);
}

bool PmuSession::stepData()
{
    if (!m_run) return false;
    if (!m_run->simulated()) {
        m_run->step(*m_data);
        if (m_run->finished()) QTimer::singleShot(0, this, &PmuSession::stopSimulation);
    } else {
        const std::uint64_t wallBefore = m_clock();
        const bool wasEmpty = m_data->empty();
        const std::uint64_t simBefore = m_data->timeSpan().second;
        m_run->step(*m_data);
        if (!m_data->empty()) {
            // The samples of this step were produced while the wall clock went from wallBefore to now.
            const auto span = m_data->timeSpan();
            m_clockMap.addStep(
                wallBefore, wasEmpty ? span.first : simBefore, std::max(m_clock(), wallBefore), span.second);
        }
    }
    updateSpan();
    return true;
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuSession.h"

#include "PmuImport.h"

#include <QFileInfo>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <utility>

using namespace rdt::pmu;

namespace {

/// Slot-weighted mean: each interval counts by how many issue slots it had (SDM 22.2.9.6: slots are the unit of TMA).
TmaBreakdown averageTma(const std::vector<const TmaBreakdown*>& points)
{
    TmaBreakdown out;
    double total = 0;
    for (const auto* b : points) {
        if (!b->valid)
            continue;
        const double w = b->slots > 0 ? b->slots : 1.0;
        total += w;
        out.level1.retiring += w * b->level1.retiring;
        out.level1.badSpeculation += w * b->level1.badSpeculation;
        out.level1.frontendBound += w * b->level1.frontendBound;
        out.level1.backendBound += w * b->level1.backendBound;
        out.level2.present = out.level2.present || b->level2.present;
        out.level2.heavyOperations += w * b->level2.heavyOperations;
        out.level2.lightOperations += w * b->level2.lightOperations;
        out.level2.branchMispredicts += w * b->level2.branchMispredicts;
        out.level2.machineClears += w * b->level2.machineClears;
        out.level2.fetchLatency += w * b->level2.fetchLatency;
        out.level2.fetchBandwidth += w * b->level2.fetchBandwidth;
        out.level2.memoryBound += w * b->level2.memoryBound;
        out.level2.coreBound += w * b->level2.coreBound;
        out.slots += b->slots;
    }
    if (total <= 0) {
        out.note = "no TMA interval in the selected range";
        return out;
    }
    out.valid = true;
    for (double* v : { &out.level1.retiring, &out.level1.badSpeculation, &out.level1.frontendBound,
             &out.level1.backendBound, &out.level2.heavyOperations, &out.level2.lightOperations,
             &out.level2.branchMispredicts, &out.level2.machineClears, &out.level2.fetchLatency,
             &out.level2.fetchBandwidth, &out.level2.memoryBound, &out.level2.coreBound })
        *v /= total;
    return out;
}

Sample loadSample(const PmuLoadSample& l)
{
    Sample s;
    s.present = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleAddr | perf::SampleWeightStruct
        | perf::SampleDataSrc;
    s.ip = l.ip;
    s.pid = l.pid;
    s.time = l.time;
    s.addr = l.addr;
    s.weight.var1 = l.latency;
    s.weight.full = l.latency;
    s.dataSrc = l.dataSrc;
    return s;
}

} // namespace

PmuSession::PmuSession(QObject* parent)
    : QObject(parent)
    , m_pool(new QThreadPool(this))
    , m_simTimer(new QTimer(this))
{
    m_pool->setMaxThreadCount(1);
    connect(m_simTimer, &QTimer::timeout, this, &PmuSession::stepSimulation);
}

PmuSession::~PmuSession()
{
    cancelImport();
    m_pool->waitForDone();
}

void PmuSession::setData(PmuData data)
{
    m_data = std::move(data);
    const auto span = m_data.timeSpan();
    m_t0 = span.first;
    m_t1 = span.second;
    m_hasRange = false;
    m_bucket = m_level = -1;
    Q_EMIT dataReset();
    Q_EMIT timeRangeChanged(0, duration(), false);
    reaggregate();
}

void PmuSession::clear()
{
    stopSimulation();
    setData(PmuData {});
}

QString PmuSession::sourceLabel() const
{
    const QString name = QString::fromStdString(m_data.name);
    switch (m_data.kind) {
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

double PmuSession::duration() const { return m_t1 > m_t0 ? static_cast<double>(m_t1 - m_t0) * 1e-9 : 0.0; }

double PmuSession::secondsOf(std::uint64_t timeNs) const
{
    return timeNs >= m_t0 ? static_cast<double>(timeNs - m_t0) * 1e-9 : -static_cast<double>(m_t0 - timeNs) * 1e-9;
}

void PmuSession::setTimeRange(double from, double to)
{
    if (from > to)
        std::swap(from, to);
    m_hasRange = true;
    m_from = from;
    m_to = to;
    Q_EMIT timeRangeChanged(from, to, true);
    reaggregate();
}

void PmuSession::clearTimeRange()
{
    m_hasRange = false;
    Q_EMIT timeRangeChanged(0, duration(), false);
    reaggregate();
}

void PmuSession::setLatencyFilter(int bucket, int level)
{
    if (bucket == m_bucket && level == m_level)
        return;
    m_bucket = bucket;
    m_level = level;
    aggregateLatencyTables();
    Q_EMIT aggregated();
}

void PmuSession::reaggregate()
{
    auto inRange = [this](std::uint64_t t) {
        if (!m_hasRange)
            return true;
        const double s = secondsOf(t);
        return s >= m_from && s <= m_to;
    };
    BranchGraph graph(m_data.branchMode);
    Sample scratch;
    scratch.present = perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleBranchStack;
    m_rangeBranches = 0;
    for (const auto& b : m_data.branches) {
        if (!inRange(b.time))
            continue;
        scratch.ip = b.ip;
        scratch.pid = b.pid;
        scratch.time = b.time;
        scratch.branches = b.branches;
        scratch.branchNr = b.branches.size();
        graph.add(scratch);
        ++m_rangeBranches;
    }
    m_graph = graph.report(*m_data.symbols);

    LoadLatency latency;
    for (const auto& l : m_data.loads)
        if (inRange(l.time))
            latency.add(loadSample(l));
    m_latency = latency.report(*m_data.symbols, 50);
    aggregateLatencyTables();

    std::vector<const TmaBreakdown*> points;
    for (const auto& p : m_data.tma)
        if (inRange(p.time))
            points.push_back(&p.breakdown);
    m_rangeTma = averageTma(points);
    Q_EMIT aggregated();
}

void PmuSession::aggregateLatencyTables()
{
    if (m_bucket < 0 && m_level < 0) {
        m_latencyTables = m_latency;
        return;
    }
    LoadLatency filtered;
    for (const auto& l : m_data.loads) {
        if (m_hasRange) {
            const double s = secondsOf(l.time);
            if (s < m_from || s > m_to)
                continue;
        }
        if (m_bucket >= 0 && LoadLatency::bucketOf(l.latency) != static_cast<std::size_t>(m_bucket))
            continue;
        if (m_level >= 0 && DataSource::decode(l.dataSrc).level() != static_cast<MemLevel>(m_level))
            continue;
        filtered.add(loadSample(l));
    }
    m_latencyTables = filtered.report(*m_data.symbols, 50);
}

void PmuSession::openPerfData(const QString& path, const QStringList& symbolDirs)
{
    cancelImport();
    m_pool->waitForDone();
    stopSimulation();
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
            QMetaObject::invokeMethod(this, [this, done, total] {
                Q_EMIT importProgress(static_cast<qint64>(done), static_cast<qint64>(total));
            }, Qt::QueuedConnection);
            return !cancel->load();
        };
        auto result = std::make_shared<rdt::Result<PmuData>>(importPerfData(file, options));
        QMetaObject::invokeMethod(this, [this, result, generation, file] {
            if (generation != m_importGeneration)
                return; // a newer import replaced this one
            m_importing = false;
            if (!*result) {
                Q_EMIT importFinished(false, QString::fromStdString(result->error().toString()));
                return;
            }
            setData(std::move(result->value()));
            Q_EMIT importFinished(true, tr("Loaded %1: %2 branch samples, %3 load samples")
                                          .arg(QFileInfo(QString::fromStdString(file)).fileName())
                                          .arg(m_data.branches.size())
                                          .arg(m_data.loads.size()));
        }, Qt::QueuedConnection);
    });
}

void PmuSession::cancelImport()
{
    if (m_cancel)
        m_cancel->store(true);
}

void PmuSession::waitForImport()
{
    m_pool->waitForDone();
}

bool PmuSession::startSimulation(const PmuSimOptions& options, int intervalMs, std::uint64_t cyclesPerStep,
    QString* error)
{
    stopSimulation();
    auto run = PmuSimRun::create(options);
    if (!run) {
        if (error)
            *error = QString::fromStdString(run.error().toString());
        return false;
    }
    m_sim.emplace(std::move(run.value()));
    m_cyclesPerStep = cyclesPerStep;
    setData(m_sim->makeData());
    m_simTimer->start(intervalMs);
    Q_EMIT simulationChanged(true);
    return true;
}

void PmuSession::stopSimulation()
{
    if (!m_simTimer->isActive())
        return;
    m_simTimer->stop();
    Q_EMIT simulationChanged(false);
}

bool PmuSession::simulating() const { return m_simTimer->isActive(); }

void PmuSession::stepSimulation()
{
    if (!m_sim)
        return;
    m_sim->step(m_data, m_cyclesPerStep);
    const auto span = m_data.timeSpan();
    m_t0 = span.first;
    m_t1 = span.second;
    if (!m_hasRange)
        Q_EMIT timeRangeChanged(0, duration(), false);
    reaggregate();
}

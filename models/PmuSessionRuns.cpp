// SPDX-License-Identifier: GPL-3.0-or-later
// PmuSession's capture runs: starting a simulated or live capture on the engine, following another client's capture,
// stepping it on the timer and stopping it. Aggregation and time ranges are in PmuSession.cpp.
#include "PmuSession.h"

#include "engine/CaptureService.h"

#include <QThreadPool>
#include <QTimer>

#include <algorithm>

using namespace rdt::pmu;

bool PmuSession::startSimulation(
    const PmuSimOptions& options, int intervalMs, std::uint64_t cyclesPerStep, QString* error)
{
    return startRun(simulatedRequest(options, intervalMs, cyclesPerStep), {}, intervalMs, error);
}

void PmuSession::setEngine(std::shared_ptr<rdt::engine::Engine> engine)
{
    stopSimulation();
    m_run.reset();
    m_engine = std::move(engine);
}

void PmuSession::setEngineFactory(EngineFactory factory)
{
    stopSimulation();
    m_run.reset();
    m_engine.reset();
    m_engineFactory = std::move(factory);
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
    if (!m_engine && m_engineFactory) {
        auto engine = m_engineFactory();
        if (!engine) {
            if (error) *error = QString::fromStdString(engine.error().toString());
            return false;
        }
        m_engine = std::move(*engine);
    }
    if (!m_engine) {
        rdt::engine::ServiceOptions options;
        options.openRdt = false; // PMU captures only: the RDT source is the main window's
        options.who = "gui";
        auto service = rdt::engine::CaptureService::open(options);
        if (!service) {
            if (error) *error = QString::fromStdString(service.error().toString());
            return false;
        }
        m_engine = std::move(*service);
    }
    auto run = PmuCaptureRun::start(m_engine, request);
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
        if (m_aggRunning && m_busyData == m_data.get()) m_aggPool->waitForDone();
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
    if (m_aggRunning && m_busyData == m_data.get()) {
        ++m_deferredSteps; // the worker reads m_data: step when it is done (finishAggregation)
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
            m_anchors.emplace_back(wallBefore, wasEmpty ? span.first : simBefore);
            m_anchors.emplace_back(std::max(m_clock(), wallBefore), span.second);
        }
    }
    updateSpan();
    return true;
}

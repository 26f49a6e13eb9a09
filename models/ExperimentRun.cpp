// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExperimentRun.h"
#include "rdt/GroupNames.h"

#include "engine/Engine.h"
#include "experiment/AdviseRecording.h"
#include "experiment/Measurement.h"
#include "experiment/SweepRecording.h"

#include <QCoreApplication>

#include <QMetaObject>
#include <QPointer>

using namespace rdt::experiment;

ExperimentRun::ExperimentRun(QObject* parent)
    : QObject(parent)
{ }

ExperimentRun::~ExperimentRun()
{
    m_stop = true;
    if (m_thread.joinable()) m_thread.join();
    // The queued finish did not run: sampling is the engine owner's to resume (it is going away with us).
}

void ExperimentRun::setEngine(rdt::engine::Engine* engine)
{
    if (!isRunning()) m_engine = engine;
}

namespace {

/// Who made a session recorded from the Experiments page: the GUI's version and what it ran.
SessionOrigin guiOrigin(const std::string& what)
{
    return { "rdtscope (Experiments page): " + what,
        "rdtscope " + QCoreApplication::applicationVersion().toStdString() };
}

} // namespace

void ExperimentRun::setRecordPath(const QString& path)
{
    if (!isRunning()) m_recordPath = path;
}

void ExperimentRun::reportRecording(const rdt::Status& closed, const std::string& path)
{
    if (!closed) {
        const QString why = QStringLiteral("recording into %1 failed: %2")
                                .arg(QString::fromStdString(path), QString::fromStdString(closed.error().toString()));
        post([this, why] { Q_EMIT failed(why); });
        return;
    }
    post([this, file = QString::fromStdString(path)] { Q_EMIT recorded(file); });
}

void ExperimentRun::post(std::function<void()> f)
{
    QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
}

void ExperimentRun::reportProgress(std::uint64_t elapsedNs, std::uint64_t totalNs)
{
    if (totalNs == 0) return;
    const double fraction = std::min(1.0, static_cast<double>(elapsedNs) / static_cast<double>(totalNs));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wall0).count();
    const double left = fraction > 0.02 ? wall * (1 - fraction) / fraction : -1;
    post([this, fraction, left] { Q_EMIT progress(fraction, left); });
}

bool ExperimentRun::launch(std::function<void()> work)
{
    if (!m_engine || isRunning()) return false;
    m_stop = false;
    m_wall0 = std::chrono::steady_clock::now();
    // The experiment polls and drains the engine itself: the background sampler would take its batches.
    m_engine->stopSampling();
    Q_EMIT started();
    m_thread = std::thread([this, work = std::move(work)] {
        work();
        post([this] {
            if (m_thread.joinable()) m_thread.join();
            (void)m_engine->startSampling();
            Q_EMIT finished();
        });
    });
    return true;
}

void ExperimentRun::stop()
{
    m_stop = true;
}

bool ExperimentRun::startSweep(const SweepSettings& settings)
{
    return launch([this, settings, file = m_recordPath.toStdString()] {
        SweepHooks hooks;
        hooks.stopRequested = [this] { return m_stop.load(); };
        hooks.onProgress = [this](std::uint64_t e, std::uint64_t t) { reportProgress(e, t); };
        const QString group = QString::fromStdString(settings.group);
        hooks.onStep = [this, group](const SweepStep& s, unsigned n) {
            post([this, group, s, n] { Q_EMIT stepMeasured(group, s, n); });
        };
        SweepRecording recording;
        if (!file.empty()) {
            if (auto opened
                = recording.open(*m_engine, file, settings.pollNs, true, guiOrigin("sweep " + sweepName(settings)));
                !opened) {
                const QString why = QString::fromStdString("recording: " + opened.error().toString());
                post([this, why] { Q_EMIT failed(why); });
                return;
            }
            recording.hookSweep(hooks, settings, 1);
        }
        auto r = runSweep(*m_engine, settings, hooks);
        if (recording.isOpen()) reportRecording(recording.finishSweep(*m_engine, settings, r), file);
        if (!r) {
            const QString why = QString::fromStdString(r.error().toString());
            post([this, why] { Q_EMIT failed(why); });
            return;
        }
        post([this, result = *r] { Q_EMIT sweepDone(result); });
    });
}

bool ExperimentRun::startAdvise(const AdviseSettings& settings)
{
    return launch([this, settings, file = m_recordPath.toStdString()] {
        AdviseHooks hooks;
        hooks.stopRequested = [this] { return m_stop.load(); };
        hooks.onPhase = [this](const std::string& what) {
            post([this, text = QString::fromStdString(what)] { Q_EMIT phase(text); });
        };
        hooks.onSweepStep = [this](const std::string& g, const SweepStep& s, unsigned n) {
            const double fraction = n ? static_cast<double>(s.index) / n : 0;
            post([this, group = QString::fromStdString(g), s, n, fraction] {
                Q_EMIT stepMeasured(group, s, n);
                Q_EMIT progress(fraction, -1);
            });
        };
        AdviseRecording recording;
        if (!file.empty()) {
            std::string groups;
            for (const auto& g : settings.groups)
                groups += (groups.empty() ? "" : ",") + rdt::displayGroup(g);
            if (auto opened = recording.open(*m_engine, file, settings, true, guiOrigin("advise " + groups)); !opened) {
                const QString why = QString::fromStdString("recording: " + opened.error().toString());
                post([this, why] { Q_EMIT failed(why); });
                return;
            }
            recording.hook(hooks, *m_engine);
        }
        auto r = runAdvise(*m_engine, settings, hooks);
        if (!file.empty()) reportRecording(recording.finish(*m_engine, r), file);
        if (!r) {
            const QString why = QString::fromStdString(r.error().toString());
            post([this, why] { Q_EMIT failed(why); });
            return;
        }
        post([this, result = *r] { Q_EMIT adviceDone(result); });
    });
}

bool ExperimentRun::startMeasure(std::uint64_t settleNs, std::uint64_t measureNs, bool paced)
{
    return launch([this, settleNs, measureNs, paced] {
        auto machine = m_engine->machine();
        if (!machine) {
            const QString why = QString::fromStdString(machine.error().toString());
            post([this, why] { Q_EMIT failed(why); });
            return;
        }
        Measurer::Hooks hooks;
        hooks.stopRequested = [this] { return m_stop.load(); };
        hooks.onProgress = [this, total = settleNs + measureNs](std::uint64_t e) { reportProgress(e, total); };
        const bool pace = paced || !m_engine->source().simulated;
        Measurer m(*m_engine, 250'000'000, machine->capabilities.monitoring.counterWidth, pace, hooks);
        const auto previous = m_engine->samplingIntervalNs();
        (void)m_engine->setSamplingInterval(m.pollNs());
        std::map<std::string, GroupMeasure> out;
        const bool done = m.settle(settleNs) && m.measure(measureNs, out);
        (void)m_engine->setSamplingInterval(previous);
        if (done) post([this, out] { Q_EMIT measured(out); });
    });
}

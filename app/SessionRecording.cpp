// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionRecording.h"

#include "engine/Engine.h"
#include "experiment/SweepRecording.h"
#include "session/Recorder.h"

#include <QCoreApplication>

SessionRecording::SessionRecording(QObject* parent)
    : QObject(parent)
{ }

SessionRecording::~SessionRecording()
{
    (void)stop();
}

rdt::Status SessionRecording::start(
    const QString& path, rdt::engine::Engine* engine, const rdt::session::StateWatcher::Changes& initial)
{
    if (m_recorder)
        return rdt::makeError("already recording to " + m_path.toStdString(), "stop the current recording first");
    if (!engine)
        return rdt::makeError(
            "nothing to record", "recording needs a live or simulated source's engine, not a replay or no source");
    auto machine = engine->machine();
    if (!machine) return machine.error();
    // The file is described as every session of an engine is, the CLI's record included: the engine's host,
    // kernel, source and machine, its sampling interval, its clock from now on (experiment::createEngineSession).
    const rdt::experiment::SessionOrigin origin { QCoreApplication::arguments().join(QLatin1Char(' ')).toStdString(),
        "rdtscope " + QCoreApplication::applicationVersion().toStdString() };
    auto writer = rdt::experiment::createEngineSession(*engine, *machine, path.toStdString(),
        engine->samplingIntervalNs(), /*overwrite=*/true, origin, engine->nowNs());
    if (!writer) return writer.error();
    m_recorder = std::make_unique<rdt::session::Recorder>(std::move(writer.value()));
    m_recorder->start();
    for (const auto& a : initial.allocations)
        m_recorder->push(a);
    for (const auto& m : initial.memberships)
        m_recorder->push(m);
    m_path = path;
    return {};
}

rdt::Status SessionRecording::stop()
{
    if (!m_recorder) return {};
    auto status = m_recorder->stop("stopped from the GUI");
    m_recorder.reset();
    return status;
}

void SessionRecording::record(const DrainedFrame& frame)
{
    if (!m_recorder) return;
    for (const auto& b : frame.batches)
        m_recorder->push(b); // a full queue drops and counts (shown as "dropped")
    for (const auto& c : frame.changes)
        m_recorder->push(c);
    for (const auto& m : frame.markers)
        m_recorder->push(m);
}

quint64 SessionRecording::committedSamples() const
{
    return m_recorder ? m_recorder->committedSamples() : 0;
}
quint64 SessionRecording::dropped() const
{
    return m_recorder ? m_recorder->dropped() : 0;
}

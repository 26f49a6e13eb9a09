// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionRecording.h"

#include "engine/EngineRecorder.h"

#include <QCoreApplication>
#include <QTimer>

#include <algorithm>

SessionRecording::SessionRecording(QObject* parent)
    : QObject(parent)
    , m_observe(new QTimer(this))
{
    connect(m_observe, &QTimer::timeout, this, [this] {
        if (m_recorder) (void)m_recorder->observe();
    });
}

SessionRecording::~SessionRecording()
{
    (void)stop();
}

rdt::Status SessionRecording::start(const QString& path, rdt::engine::Engine* engine)
{
    if (m_recorder)
        return rdt::makeError("already recording to " + m_path.toStdString(), "stop the current recording first");
    if (!engine)
        return rdt::makeError(
            "nothing to record", "recording needs a live or simulated source's engine, not a replay or no source");
    rdt::engine::RecordingOptions options;
    options.path = path.toStdString();
    options.overwrite = true;
    options.origin = { QCoreApplication::arguments().join(QLatin1Char(' ')).toStdString(),
        "rdtscope " + QCoreApplication::applicationVersion().toStdString() };
    auto recorder = rdt::engine::EngineRecorder::start(*engine, options);
    if (!recorder) return recorder.error();
    m_recorder = std::move(*recorder);
    m_path = path;
    // The groups are looked at as often as the engine samples (the CLI looks after each poll), at least every second.
    const auto intervalMs = static_cast<int>(std::clamp<std::uint64_t>(m_recorder->intervalNs() / 1'000'000, 10, 1000));
    m_observe->start(intervalMs);
    return {};
}

rdt::Status SessionRecording::stop()
{
    m_observe->stop();
    if (!m_recorder) return {};
    auto status = m_recorder->stop("stopped from the GUI");
    m_recorder.reset();
    return status;
}

quint64 SessionRecording::committedSamples() const
{
    return m_recorder ? m_recorder->committedSamples() : 0;
}
quint64 SessionRecording::dropped() const
{
    return m_recorder ? m_recorder->dropped() : 0;
}

void SessionRecording::marker(quint64 timeNs, const QString& kind, const QString& text)
{
    if (m_recorder) m_recorder->marker(timeNs, kind.toStdString(), text.toStdString());
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionRecording.h"

#include "core/Time.h"
#include "session/Recorder.h"

#include <QCoreApplication>
#include <QSysInfo>

SessionRecording::SessionRecording(QObject* parent)
    : QObject(parent)
{ }

SessionRecording::~SessionRecording()
{
    (void)stop();
}

rdt::Status SessionRecording::start(const QString& path, const SourceDescription& source,
    const rdt::session::MachineInfo& machine, const rdt::session::StateWatcher::Changes& initial)
{
    if (m_recorder)
        return rdt::makeError("already recording to " + m_path.toStdString(), "stop the current recording first");
    if (source.kind == SourceKind::None || source.kind == SourceKind::Replay)
        return rdt::makeError("nothing to record", "recording needs a live or simulated source, not a replay");
    rdt::session::SessionMeta meta;
    meta.startWallNs = rdt::wallClockNs();
    meta.host = QSysInfo::machineHostName().toStdString();
    meta.kernel = QSysInfo::kernelVersion().toStdString();
    meta.source = source.name;
    meta.simulated = source.kind == SourceKind::Simulated;
    meta.timeIsSimulated = meta.simulated;
    meta.toolVersion = "rdtscope " + QCoreApplication::applicationVersion().toStdString();
    meta.commandLine = QCoreApplication::arguments().join(QLatin1Char(' ')).toStdString();
    const auto colon = source.name.find(':');
    if (meta.simulated && colon != std::string::npos) meta.scenario = source.name.substr(colon + 1);
    meta.intervalNs = 100'000'000;
    auto writer = rdt::session::SessionWriter::create(path.toStdString(), meta, machine);
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
}

quint64 SessionRecording::committedSamples() const
{
    return m_recorder ? m_recorder->committedSamples() : 0;
}
quint64 SessionRecording::dropped() const
{
    return m_recorder ? m_recorder->dropped() : 0;
}

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/SampleFeed.h"

#include "core/Result.h"
#include "session/SessionTypes.h"
#include "session/StateWatcher.h"

#include <QObject>
#include <QString>

#include <memory>

namespace rdt::session {
class Recorder;
}
namespace rdt::engine {
class Engine;
}

/// The Record button: writes what the frame pump drains (every batch, allocation change and scenario marker) into a
/// session file through capture/session's Recorder thread (one transaction per flush, so a crash loses at most 500 ms).
class SessionRecording : public QObject {
    Q_OBJECT
public:
    explicit SessionRecording(QObject* parent = nullptr);
    ~SessionRecording() override;

    /// Records what `engine`'s source delivers from now on (the overwrite was confirmed by the file dialog);
    /// `initial` is every group's state at the start (SourceBundle::initialState), stored as "initial" events so
    /// replay starts from it. A source without an engine (a replay, none) has nothing to record.
    rdt::Status start(
        const QString& path, rdt::engine::Engine* engine, const rdt::session::StateWatcher::Changes& initial);
    /// Final flush and close; returns the recorder's write error if one happened.
    rdt::Status stop();
    bool isRecording() const { return m_recorder != nullptr; }
    QString path() const { return m_path; }
    quint64 committedSamples() const;
    quint64 dropped() const;

    /// Connect FramePump::drained here.
    void record(const DrainedFrame& frame);

private:
    std::unique_ptr<rdt::session::Recorder> m_recorder;
    QString m_path;
};

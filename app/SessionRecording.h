// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <QObject>
#include <QString>

#include <memory>

class QTimer;

namespace rdt::engine {
class Engine;
class EngineRecorder;
}

/// The Record button: the engine's one recorder (engine/EngineRecorder.h, the CLI's `record` too) writes every
/// sample batch, allocation change and scenario marker the engine queues, from the engine's thread to the recorder
/// thread (one transaction per flush, so a crash loses at most 500 ms). The GUI thread only looks at the groups at
/// the sampling interval, for the state no event reports (a scenario's write, tasks moving).
class SessionRecording : public QObject {
    Q_OBJECT
public:
    explicit SessionRecording(QObject* parent = nullptr);
    ~SessionRecording() override;

    /// Records what `engine` delivers from now on, with every group's state now (the overwrite was confirmed by the
    /// file dialog). A source without a live engine (a replay, none) has nothing to record.
    rdt::Status start(const QString& path, rdt::engine::Engine* engine);
    /// Final flush and close; returns the recorder's write error if one happened.
    rdt::Status stop();
    bool isRecording() const { return m_recorder != nullptr; }
    QString path() const { return m_path; }
    /// A marker of the front end's own (a blame run's finding) at `timeNs` on the engine's clock; nothing when not
    /// recording.
    void marker(quint64 timeNs, const QString& kind, const QString& text);
    quint64 committedSamples() const;
    quint64 dropped() const;

private:
    std::unique_ptr<rdt::engine::EngineRecorder> m_recorder;
    QTimer* m_observe;
    QString m_path;
};

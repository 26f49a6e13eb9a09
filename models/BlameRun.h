// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A blame run (capture/blame, docs/BLAME.md) on a worker thread, for the Interference page: the engine's background
// sampling is paused while it runs (blame polls and drains the engine itself) and resumed when it ends; its phases,
// each probe and the result come back to the GUI thread as signals, and so does everything it drained and decided, as
// frames a window's recording keeps (its samples, allocation changes and the `blame` markers `blame --record` writes).
// stop() asks it to end now: every probed allocation is written back before it returns. undoContainment() writes back
// what a containment changed.

#include "blame/Blame.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <thread>

namespace rdt::engine {
class Engine;
}

class BlameRun : public QObject {
    Q_OBJECT
public:
    explicit BlameRun(QObject* parent = nullptr);
    ~BlameRun() override; ///< stops a running blame and waits for its restore

    /// The engine blame runs on (null: none can run, e.g. a replay). Not while running.
    void setEngine(rdt::engine::Engine* engine);
    rdt::engine::Engine* engine() const { return m_engine; }
    bool isRunning() const { return m_thread.joinable(); }

    bool start(const rdt::blame::BlameSettings& settings);
    /// Asks the run to stop; it restores every probed allocation, then finished() comes.
    void stop();
    /// stop(), then waits for the worker (its restore included): before the engine goes away.
    void stopAndWait();
    /// Writes the containment's undo (one transaction) and reads it back; the engine's answer. Not while running.
    rdt::engine::CommandResult undoContainment(const rdt::blame::Containment& containment);

Q_SIGNALS:
    void started();
    void phase(const QString& text);
    void probed(const rdt::blame::ProbeResult& probe);
    void done(const rdt::blame::BlameResult& result);
    void failed(const QString& reason);
    /// The worker has ended and the engine samples again.
    void finished();
    /// A `blame` marker (phase, probe, ranking, containment, end) at `timeNs` on the engine's clock, in order: a
    /// window's recording takes it (the run's polls and writes reach the recording through the engine's event tap).
    void marker(quint64 timeNs, const QString& kind, const QString& text);

private:
    void post(std::function<void()> f);

    rdt::engine::Engine* m_engine = nullptr;
    std::thread m_thread;
    std::atomic<bool> m_stop { false };
};

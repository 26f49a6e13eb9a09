// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A sweep, an advisor run or a measurement (capture/experiment) on a worker thread, for the Experiments page: the
// engine's background sampling is paused while it runs (the experiment polls and drains the engine itself) and
// resumed when it ends; every report comes back to the GUI thread as a signal. stop() asks the experiment to end
// now: it restores the original allocation before it returns. With a record path set, a sweep or an advisor run is
// also recorded into a new session file, as `rdtscope-cli sweep/advise --record FILE` records it (one
// implementation: experiment/SweepRecording.h, experiment/AdviseRecording.h).

#include "experiment/Advise.h"
#include "experiment/Sweep.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <thread>

namespace rdt::engine {
class Engine;
}

class ExperimentRun : public QObject {
    Q_OBJECT
public:
    explicit ExperimentRun(QObject* parent = nullptr);
    ~ExperimentRun() override; ///< stops a running experiment and waits for its restore

    /// The engine experiments run on (null: none can run, e.g. a replay). Not while running.
    void setEngine(rdt::engine::Engine* engine);
    rdt::engine::Engine* engine() const { return m_engine; }
    bool isRunning() const { return m_thread.joinable(); }

    /// Sweeps and advisor runs started from now on are recorded into a new session at `path` (replaced if it
    /// exists: the GUI asked first); empty: not recorded. Not while running.
    void setRecordPath(const QString& path);
    QString recordPath() const { return m_recordPath; }

    bool startSweep(const rdt::experiment::SweepSettings& settings);
    bool startAdvise(const rdt::experiment::AdviseSettings& settings);
    /// Measures every group as it is now (after applying a proposal: the measured change against the prediction).
    bool startMeasure(std::uint64_t settleNs, std::uint64_t measureNs, bool paced);
    /// Asks the running experiment to stop; it restores the allocation, then finished() comes.
    void stop();

Q_SIGNALS:
    void started();
    void stepMeasured(const QString& group, const rdt::experiment::SweepStep& step, unsigned planned);
    /// Share done (0..1) and the wall-clock seconds left at the rate so far (negative: not known yet).
    void progress(double fraction, double secondsLeft);
    void phase(const QString& text);
    void sweepDone(const rdt::experiment::SweepResult& result);
    void adviceDone(const rdt::experiment::AdviseResult& result);
    void measured(const std::map<std::string, rdt::experiment::GroupMeasure>& groups);
    void failed(const QString& reason);
    /// The run was recorded into `path` (the file is closed and complete).
    void recorded(const QString& path);
    /// The worker has ended and the engine samples again.
    void finished();

private:
    bool launch(std::function<void()> work);
    void reportProgress(std::uint64_t elapsedNs, std::uint64_t totalNs);
    /// Runs `f` on the GUI thread (the object's thread), after the worker's current report.
    void post(std::function<void()> f);

    /// After a recorded run: `recorded`, or `failed` with why the file could not be written.
    void reportRecording(const rdt::Status& closed, const std::string& path);

    rdt::engine::Engine* m_engine = nullptr;
    QString m_recordPath;
    std::thread m_thread;
    std::atomic<bool> m_stop { false };
    std::chrono::steady_clock::time_point m_wall0;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Qt-side holder of PMU data (docs/ARCHITECTURE.md "Sources"): simulated or live (a PmuCaptureRun through the
// engine PmuEngineSource gives, stepped by a timer), or imported (perf.data read on a worker thread with progress and
// cancel). It aggregates the samples of the selected time range into the branch graph, the load-latency report and a
// TMA breakdown; every PMU view reads from here and re-reads when aggregated() fires. setTimeRange() is the one call
// that filters every PMU view.
//
// Aggregation runs on a worker (PmuAggregationQueue: one job at a time, stale results dropped): a range or filter
// change returns at once, aggregated() follows when the job is done. The worker reads m_data (samples and the symbol
// cache) without a copy: the data is only mutated by a simulation or live step, and a step that comes while a job
// reads the same data is deferred until the job is done (steps are counted, none is lost; perf's ring buffers hold a
// live run's samples meanwhile). A simulated run's clock is related to this host's through PmuClockMap.

#include "PmuAggregate.h"
#include "PmuCaptureRun.h"
#include "PmuClockMap.h"
#include "PmuData.h"
#include "PmuEngineSource.h"
#include "pmu/LoadLatency.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class PmuAggregationQueue;
class QThreadPool;
class QTimer;

class PmuSession : public QObject {
    Q_OBJECT
public:
    explicit PmuSession(QObject* parent = nullptr);
    ~PmuSession() override;

    /// Replaces the data (range and filters reset) and aggregates.
    void setData(rdt::pmu::PmuData data);
    void clear();
    const rdt::pmu::PmuData& data() const { return *m_data; }
    QString sourceLabel() const; ///< "Simulated: ...", "perf.data: file", "No PMU data"

    /// The data's length: its last sample's time minus its first's, in seconds.
    double duration() const;
    /// A sample time in the seconds every page of the window shows: on the window's time base (setWindowClock)
    /// where the data's clock relates to it, else counted from the data's first sample.
    double secondsOf(std::uint64_t timeNs) const;
    /// The first and the last sample's seconds (secondsOf): the whole run's range.
    double startSeconds() const { return offsetSeconds(); }
    double endSeconds() const { return offsetSeconds() + duration(); }
    /// The window's time base (docs/ARCHITECTURE.md "One time base"): CLOCK_MONOTONIC ns -> the seconds of the
    /// window's RDT timelines (FramePump::secondsOfMonotonic, which places the engine's clock), nullopt while it
    /// cannot say. With it, this session's seconds (secondsOf, ranges, the TMA plot, the call-stack range boxes) are
    /// the timelines' seconds, so a range reads the same on every page.
    void setWindowClock(std::function<std::optional<double>(std::uint64_t monoNs)> secondsOfMonotonic);
    /// The data is placed on the window's clock: its seconds are the timelines' seconds.
    bool onWindowClock() const;
    /// Keeps only samples whose time is within [from, to] (seconds) in every aggregate; from > to is swapped.
    void setTimeRange(double from, double to);
    void clearTimeRange();
    bool hasTimeRange() const { return m_hasRange; }
    double rangeFrom() const { return m_from; }
    double rangeTo() const { return m_to; }

    /// Load-latency tables only: keep samples in histogram bucket `bucket` (-1: any) from `level` (-1: any).
    void setLatencyFilter(int bucket, int level);
    int latencyBucket() const { return m_bucket; }
    int latencyLevel() const { return m_level; }

    /// Keeps only the samples of one thread and/or CPU (nullopt: any) in the branch graph, the call trees and the
    /// flame graph (pmu::StackFilter); the load-latency and TMA pages are not narrowed.
    void setStackFilter(std::optional<std::uint32_t> tid, std::optional<std::uint32_t> cpu);
    const rdt::pmu::StackFilter& stackFilter() const { return m_stackFilter; }

    const rdt::pmu::BranchGraphReport& branchGraph() const { return m_graph; }
    /// Top-down and bottom-up trees of the range's call stacks, with the threads and CPUs seen (pmu::CallTree).
    const rdt::pmu::CallTreeReport& callTree() const { return m_callTree; }
    /// Histogram over the time range (not narrowed by the latency filter).
    const rdt::pmu::LoadLatencyReport& latency() const { return m_latency; }
    /// Function and cache-line tables over the time range and the latency filter.
    const rdt::pmu::LoadLatencyReport& latencyTables() const { return m_latencyTables; }
    /// Slot-weighted mean of TMA series `series`' intervals in the range (valid = false when there are none or
    /// the series does not exist). Every series is aggregated over the same range (PmuData::tmaSeries).
    const rdt::pmu::TmaBreakdown& rangeTma(std::size_t series = 0) const;
    std::size_t rangeBranchSamples() const { return m_rangeBranches; }

    /// Reads a perf.data file on a worker thread; importProgress / importFinished follow. A running import is
    /// cancelled first. symbolDirs: where to find binaries that are not at their recorded path (perf's --symfs).
    void openPerfData(const QString& path, const QStringList& symbolDirs = {});
    void cancelImport();
    bool importing() const { return m_importing; }
    /// The perf.data file the last successful import read (empty before one); valid when importFinished(true).
    QString importedFile() const { return m_importedFile; }
    /// Blocks until no import runs (tests, shutdown).
    void waitForImport();

    /// Starts the simulated PMU through the engine, which runs `cyclesPerStep` simulated cycles per step, one step
    /// every `intervalMs`. Stopping it stops only the timer: stepSimulation() still steps it (tests step by hand).
    bool startSimulation(const rdt::pmu::PmuSimOptions& options, int intervalMs = 250,
        std::uint64_t cyclesPerStep = 20'000'000, QString* error = nullptr);
    void stopSimulation();
    bool simulating() const;
    /// Shows a capture someone else runs on `engine` (a lesson's simulated PMU step), taking its batches every
    /// `intervalMs`; stopSimulation() lets go of it without stopping it. The owner keeps `engine` alive until then.
    void followCapture(std::shared_ptr<rdt::engine::Engine> engine, const rdt::engine::PmuCaptureInfo& info,
        rdt::engine::PmuCaptureKind kind, int intervalMs = 250);
    /// The id of the capture followed, if one is.
    std::optional<std::uint32_t> followedCapture() const;
    /// The id of the capture shown, started here or followed, if one is (on engine()).
    std::optional<std::uint32_t> shownCapture() const;
    /// The engine captures go through now (null before the first capture opens one).
    const rdt::engine::Engine* engine() const { return m_engines.current(); }
    /// The engine captures go through, live and simulated (a remote one when connected to an agent). Unset: the
    /// first capture opens a local PMU-only capture service (engine/CaptureService.h), as rdtscope-cli pmu does.
    void setEngine(std::shared_ptr<rdt::engine::Engine> engine);
    /// Where the next capture's engine comes from when none is set (connected: the agent's, opened on the first
    /// capture); null: a local PMU-only capture service. Drops the engine in use.
    using EngineFactory = PmuEngineSource::Factory;
    void setEngineFactory(EngineFactory factory);
    /// Starts a live capture through the engine, stepped like the simulation; false with the engine's advice in
    /// *error when the PMU cannot run it (on a VM without a `cpu` PMU every hardware recipe fails here).
    bool startLive(rdt::pmu::PmuRecipeKind kind, const rdt::pmu::PerfTarget& target, int intervalMs = 250,
        QString* error = nullptr);
    bool live() const { return m_run && !m_run->simulated(); }
    /// One simulation step now (the timer calls this; tests call it directly).
    void stepSimulation();

    /// Requests a re-aggregation of everything from the samples on the worker; returns at once.
    void reaggregate();
    /// True while an aggregation job runs or waits to run.
    bool aggregating() const;
    /// Blocks until no aggregation runs or is pending and applies the last result (tests, the benchmark).
    void waitForAggregation();
    /// How long the last applied aggregation took on the worker (ms), and how many results were dropped as stale.
    double lastWorkerMs() const { return m_lastWorkerMs; }
    quint64 discardedAggregations() const;
    quint64 aggregationGeneration() const;

    /// What the PMU pages say about the shared RDT timeline's range (empty: nothing), e.g. that it cannot apply
    /// to an imported file recorded on another machine's clock.
    void setTimelineNote(const QString& note);
    QString timelineNote() const { return m_timelineNote; }

    /// A range chosen on the shared RDT timeline, in this host's CLOCK_MONOTONIC ns. Applied with setTimeRange
    /// when this data's clock relates to it (see dataTimeOfMonotonic); otherwise the views stay unfiltered and
    /// timelineNote() says why. Returns whether it was applied.
    bool setTimelineRange(std::uint64_t fromMonoNs, std::uint64_t toMonoNs);
    /// The timeline's range cannot be placed on this host's clock (it replays a recording): nothing is filtered.
    void rejectTimelineRange(const QString& why);
    /// The timeline's range was cleared: drops the filter it set (not one dragged on the TMA plot) and the note.
    void clearTimelineRange();
    bool timeRangeFromTimeline() const { return m_rangeFromTimeline; }
    /// This host's CLOCK_MONOTONIC ns -> the data's sample clock (ns). Live: the recipes sample with
    /// use_clockid = CLOCK_MONOTONIC, so the two are the same clock. Simulated: the simulated PMU has its own
    /// clock; each step records when (wall clock) it ran and which simulated span it produced, and a wall time maps
    /// onto the samples produced then (linear within a step, flat between steps). Imported or none: nullopt.
    std::optional<std::uint64_t> dataTimeOfMonotonic(std::uint64_t monoNs) const;
    /// The inverse: the data's sample clock (ns) -> CLOCK_MONOTONIC ns (simulated: the first wall time the run
    /// reached it); nullopt when they cannot be related. The timeline uses it to show the TMA plot's range.
    std::optional<std::uint64_t> monotonicOfDataTime(std::uint64_t dataNs) const;
    /// Range seconds (secondsOf's) -> the data's sample clock (ns).
    std::optional<std::uint64_t> dataTimeOfSeconds(double seconds) const;
    /// Test seam: the CLOCK_MONOTONIC read around each simulation step (default rdt::monotonicNs).
    void setMonotonicClock(std::function<std::uint64_t()> clock) { m_clock = std::move(clock); }

Q_SIGNALS:
    void dataReset(); ///< new source or data replaced
    void aggregated(); ///< aggregates changed (range, filter, new samples)
    void timeRangeChanged(double from, double to, bool active);
    void stackFilterChanged();
    /// An aggregation has been running for a moment (true; the pages say "Re-aggregating...") or is done (false).
    /// Not emitted for jobs that finish within kBusyDelayMs, so a running simulation does not flicker.
    void aggregatingChanged(bool busy);
    void timelineNoteChanged(const QString& note);
    void importProgress(qint64 done, qint64 total);
    void importFinished(bool ok, const QString& message);
    void simulationChanged(bool running);

public:
    static constexpr int kBusyDelayMs = 150;
    /// How long a job runs before aggregatingChanged(true) (kBusyDelayMs; tests set 0).
    void setBusyDelayMs(int ms);

private:
    void replaceData(std::shared_ptr<rdt::pmu::PmuData> data, std::shared_ptr<rdt::pmu::Aggregates> prepared);
    /// user: a range, filter or data change (shows "Re-aggregating"), not a running capture's step.
    void requestAggregation(bool full, bool user = true);
    void applyTimeRange(double from, double to, bool fromTimeline);
    void applyAggregates(rdt::pmu::Aggregates& a, bool full);
    /// Steps the capture steps deferred while an aggregation read the data.
    void stepDeferred();
    /// One simulation or live step into m_data; false when there is nothing to step.
    bool stepData();
    /// Starts `request` on the engine (opening it first when needed) and shows its data; what failed in *error.
    bool startRun(const rdt::engine::PmuRequest& request, const std::string& what, int intervalMs, QString* error);
    void updateSpan();
    /// The window's seconds at the data's first sample (0 without a window clock, or for an imported file).
    double offsetSeconds() const;

    std::shared_ptr<rdt::pmu::PmuData> m_data;
    std::uint64_t m_t0 = 0, m_t1 = 0;
    std::function<std::optional<double>(std::uint64_t)> m_windowClock;
    /// offsetSeconds(), fixed once known for the data's first sample (so ranges do not drift as anchors move).
    mutable std::optional<std::pair<std::uint64_t, double>> m_offset;
    bool m_hasRange = false;
    double m_from = 0, m_to = 0;
    int m_bucket = -1, m_level = -1;
    rdt::pmu::StackFilter m_stackFilter;
    rdt::pmu::BranchGraphReport m_graph;
    rdt::pmu::CallTreeReport m_callTree;
    rdt::pmu::LoadLatencyReport m_latency, m_latencyTables;
    std::vector<rdt::pmu::TmaBreakdown> m_rangeTma; ///< one per TMA series
    std::size_t m_rangeBranches = 0;

    QThreadPool* m_pool; ///< imports
    PmuAggregationQueue* m_aggregation;
    int m_deferredSteps = 0;
    double m_lastWorkerMs = 0;
    QString m_timelineNote;
    bool m_rangeFromTimeline = false;
    std::function<std::uint64_t()> m_clock;
    PmuClockMap m_clockMap; ///< a simulated run's clock against CLOCK_MONOTONIC

    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::atomic<bool> m_importing { false };
    QString m_importedFile;
    int m_importGeneration = 0;

    QTimer* m_simTimer;
    PmuEngineSource m_engines;
    std::unique_ptr<rdt::pmu::PmuCaptureRun> m_run; ///< the capture being stepped, live or simulated
};

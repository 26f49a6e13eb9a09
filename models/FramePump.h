// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SampleFeed.h"
#include "TelemetryHistory.h"
#include "TimeSeriesStore.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>
#include <vector>

/// An allocation change placed on the time axis (a labelled marker on every timeline).
struct TimelineMarker {
    double t = 0;
    QString label; ///< "p1 L3:0 7ff -> 3 (gui)"
    bool ok = true; ///< false: the backend rejected it; label carries the reason
};

/// What one frame delivered, handed to models in ONE signal per frame (never one per sample).
struct FrameUpdate {
    quint64 generation = 0; ///< which feed produced it; models drop updates of an older generation
    int batches = 0;
    double now = 0; ///< newest time on the session axis (seconds)
    rdt::RdtSampleBatch latest; ///< newest batch: the current readings per group and domain
    std::vector<rdt::AllocationChanged> changes;
    quint64 dropped = 0;
    std::string connectionLost; ///< DrainedFrame::connectionLost: a connected source's engine is gone (once)
};

/// The frame pump (docs/ARCHITECTURE.md "Data flow"): one QTimer (30 Hz by default) on the GUI thread pulls whatever
/// the engine queued since the last frame, appends it to the TimeSeriesStore, and tells the models once.
class FramePump : public QObject {
    Q_OBJECT
public:
    explicit FramePump(QObject* parent = nullptr);
    ~FramePump() override;

    /// Replaces the feed; a new generation starts, the store and markers are cleared.
    void setFeed(std::unique_ptr<SampleFeed> feed);
    SampleFeed* feed() const { return m_feed.get(); }
    SourceDescription source() const;
    quint64 generation() const { return m_generation; }

    void setFrameRate(double hz);
    double frameRate() const { return m_hz; }
    void start();
    void stop();
    bool isRunning() const { return m_timer.isActive(); }

    /// One frame's work (the timer calls it; tests and the benchmark call it directly). Returns batches taken.
    int pumpOnce();
    /// Forget the series (a replay seek): the next batch starts a fresh axis without resetting the origin.
    void resetSeries();

    TimeSeriesStore& store() { return m_store; }
    const TimeSeriesStore& store() const { return m_store; }
    /// PERF_PKG_MON power and activity per group (empty on machines without it), on the same time axis.
    const TelemetryHistory& telemetry() const { return m_telemetry; }
    const std::deque<TimelineMarker>& markers() const { return m_markers; }
    double now() const { return m_now; }
    double secondsOf(std::uint64_t timeNs) const;
    /// The host's CLOCK_MONOTONIC time (ns) at timeline second `t`, to relate the timeline to other data recorded
    /// on this host (the PMU pages). Live: the sampler stamps batches with CLOCK_MONOTONIC, so exact. Simulated:
    /// the simulated machine advances one sampling interval per interval of wall time (Sampler::run), so the
    /// newest batch's arrival anchors it (off by up to a frame and a sampling interval). Replay or no source:
    /// nullopt, a recording's clock is its own.
    std::optional<std::uint64_t> monotonicNsOf(double t) const;
    /// The inverse: timeline seconds of a CLOCK_MONOTONIC time (nullopt as above).
    std::optional<double> secondsOfMonotonic(std::uint64_t monoNs) const;

Q_SIGNALS:
    void frame(const FrameUpdate& update);
    /// Everything one frame drained (all batches, not only the newest): the raw batches, as the latency bench times
    /// them (a recording takes the engine's events itself, engine/EngineRecorder.h).
    void drained(const DrainedFrame& frame);
    void sourceChanged(const SourceDescription& source);
    /// After resetSeries() or setFeed(): views drop what they drew.
    void seriesReset();

private:
    void ingest(const rdt::RdtSampleBatch& batch);

    std::unique_ptr<SampleFeed> m_feed;
    QTimer m_timer;
    double m_hz = 30.0;
    quint64 m_generation = 0;
    bool m_haveOrigin = false;
    std::uint64_t m_originNs = 0;
    double m_now = 0;
    double m_anchorT = 0; ///< timeline second of the newest batch ...
    std::uint64_t m_anchorWallNs = 0; ///< ... and CLOCK_MONOTONIC when it arrived (0: none yet)
    TimeSeriesStore m_store;
    TelemetryHistory m_telemetry;
    std::deque<TimelineMarker> m_markers;
    DrainedFrame m_scratch;
};

Q_DECLARE_METATYPE(FrameUpdate)

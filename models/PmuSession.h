// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Qt-side holder of PMU data (DESIGN.md "Sources"): simulated (PmuSimRun, stepped by a timer), imported
// (perf.data read on a worker thread with progress and cancel) or, later, live. It aggregates the samples of the
// selected time range into the branch graph, the load-latency report and a TMA breakdown; every PMU view reads
// from here and re-reads when aggregated() fires. setTimeRange() is the one call that filters every PMU view.

#include "PmuData.h"
#include "PmuSimRun.h"
#include "pmu/LoadLatency.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

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
    const rdt::pmu::PmuData& data() const { return m_data; }
    QString sourceLabel() const; ///< "Simulated: ...", "perf.data: file", "No PMU data"

    /// Seconds since the first sample of the data (0 .. duration()).
    double duration() const;
    double secondsOf(std::uint64_t timeNs) const;
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

    const rdt::pmu::BranchGraphReport& branchGraph() const { return m_graph; }
    /// Histogram over the time range (not narrowed by the latency filter).
    const rdt::pmu::LoadLatencyReport& latency() const { return m_latency; }
    /// Function and cache-line tables over the time range and the latency filter.
    const rdt::pmu::LoadLatencyReport& latencyTables() const { return m_latencyTables; }
    /// Slot-weighted mean of the TMA intervals in the range (valid = false when there are none).
    const rdt::pmu::TmaBreakdown& rangeTma() const { return m_rangeTma; }
    std::size_t rangeBranchSamples() const { return m_rangeBranches; }

    /// Reads a perf.data file on a worker thread; importProgress / importFinished follow. A running import is
    /// cancelled first. symbolDirs: where to find binaries that are not at their recorded path (perf's --symfs).
    void openPerfData(const QString& path, const QStringList& symbolDirs = {});
    void cancelImport();
    bool importing() const { return m_importing; }
    /// Blocks until no import runs (tests, shutdown).
    void waitForImport();

    /// Starts the simulated PMU, stepping it every `intervalMs` by `cyclesPerStep` simulated cycles.
    bool startSimulation(const rdt::pmu::PmuSimOptions& options, int intervalMs = 250,
        std::uint64_t cyclesPerStep = 20'000'000, QString* error = nullptr);
    void stopSimulation();
    bool simulating() const;
    /// One simulation step now (the timer calls this; tests call it directly).
    void stepSimulation();

    /// Re-aggregates everything from the samples (the views call nothing else).
    void reaggregate();

Q_SIGNALS:
    void dataReset(); ///< new source or data replaced
    void aggregated(); ///< aggregates changed (range, filter, new samples)
    void timeRangeChanged(double from, double to, bool active);
    void importProgress(qint64 done, qint64 total);
    void importFinished(bool ok, const QString& message);
    void simulationChanged(bool running);

private:
    void aggregateLatencyTables();

    rdt::pmu::PmuData m_data;
    std::uint64_t m_t0 = 0, m_t1 = 0;
    bool m_hasRange = false;
    double m_from = 0, m_to = 0;
    int m_bucket = -1, m_level = -1;
    rdt::pmu::BranchGraphReport m_graph;
    rdt::pmu::LoadLatencyReport m_latency, m_latencyTables;
    rdt::pmu::TmaBreakdown m_rangeTma;
    std::size_t m_rangeBranches = 0;

    QThreadPool* m_pool;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::atomic<bool> m_importing { false };
    int m_importGeneration = 0;

    QTimer* m_simTimer;
    std::optional<rdt::pmu::PmuSimRun> m_sim;
    std::uint64_t m_cyclesPerStep = 0;
};

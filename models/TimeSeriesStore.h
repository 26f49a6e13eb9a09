// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <array>
#include <cstddef>
#include <deque>
#include <vector>

/// The metrics a timeline plots per group (remote = total - local, as resctrl defines it).
enum class Metric : int { Occupancy = 0, BandwidthTotal, BandwidthLocal, BandwidthRemote };
constexpr int kMetricCount = 4;

/// One plotted point list: keys (seconds) and values, sorted by key; min/max pairs share a key.
struct DecimatedSeries {
    std::vector<double> keys;
    std::vector<double> values;
};

/// Per-group time series with a min/max pyramid and a bounded history (heaptrack's "decimate in the engine, keep
/// peaks" idea). Level 0 holds raw samples; each higher level folds kFanout buckets of the level below into one
/// {tMin, tMax, min, max} bucket, so a one-hour window at 10 Hz decimates by visiting a few thousand buckets, never
/// the 36,000 raw points. Times are seconds on the session's time axis; one time column is shared by the metrics
/// of a group because the sampler reads them together.
class TimeSeriesStore {
public:
    static constexpr int kFanout = 16;
    static constexpr int kLevels = 4; // raw, x16, x256, x4096

    explicit TimeSeriesStore(double historySeconds = 3600.0);

    /// Oldest data kept, measured back from the newest sample of each group.
    void setHistorySeconds(double seconds);
    double historySeconds() const { return m_history; }

    /// Index of a group, created on first use (stable until clear()).
    int groupIndex(const QString& group);
    int groupCount() const { return static_cast<int>(m_groups.size()); }
    QString groupName(int index) const;
    QStringList groupNames() const;

    /// Appends one reading of every metric; a time older than the group's newest sample is dropped (a
    /// replay seek resets the store instead), so keys stay sorted for binary search.
    bool append(int group, double t, const std::array<double, kMetricCount>& values);
    void clear();

    std::size_t sampleCount(int group) const;
    /// Raw samples of a group with time in [t0, t1] (two binary searches).
    std::size_t sampleCountIn(int group, double t0, double t1) const;
    /// Time of a group's newest sample; the lowest double when it has none.
    double newestTime(int group) const;
    /// Time span of all data: {min, max}; {0, 0} when empty.
    std::pair<double, double> timeRange() const;
    /// Maximum value of a metric over [t0, t1] across all groups (for axis scaling), using the pyramid.
    double maxValue(Metric metric, double t0, double t1) const;

    /// Min/max decimation of [t0, t1] into at most `columns` columns: two points (min then max) per column
    /// when a column holds more than one sample, the raw points otherwise. Peaks are never lost.
    DecimatedSeries decimate(int group, Metric metric, double t0, double t1, int columns) const;

    /// Raw samples of [t0, t1] for CSV export: callback(t, values).
    template <typename F> void forEachRaw(int group, double t0, double t1, F&& callback) const;

private:
    struct Bucket {
        double tMin = 0;
        double tMax = 0;
        std::array<float, kMetricCount> lo {};
        std::array<float, kMetricCount> hi {};
        void merge(const Bucket& other);
    };
    struct Series {
        QString name;
        std::array<std::deque<Bucket>, kLevels> levels; // levels[0] holds raw samples (tMin == tMax, lo == hi)
        std::array<Bucket, kLevels> open {}; // partially filled bucket per level (index 0 unused)
        std::array<int, kLevels> openCount {};
    };
    void trim(Series& s);
    static std::size_t firstAtOrAfter(const std::deque<Bucket>& level, double t);

    double m_history;
    std::vector<Series> m_groups;
};

template <typename F> void TimeSeriesStore::forEachRaw(int group, double t0, double t1, F&& callback) const
{
    if (group < 0 || group >= groupCount()) return;
    const auto& raw = m_groups[static_cast<std::size_t>(group)].levels[0];
    for (auto i = firstAtOrAfter(raw, t0); i < raw.size() && raw[i].tMin <= t1; ++i) {
        std::array<double, kMetricCount> v {};
        for (int m = 0; m < kMetricCount; ++m)
            v[static_cast<std::size_t>(m)] = static_cast<double>(raw[i].lo[static_cast<std::size_t>(m)]);
        callback(raw[i].tMin, v);
    }
}

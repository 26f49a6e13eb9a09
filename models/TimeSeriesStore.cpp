// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimeSeriesStore.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {
constexpr std::size_t levelSpan(int level)
{
    std::size_t span = 1;
    for (int i = 0; i < level; ++i)
        span *= static_cast<std::size_t>(TimeSeriesStore::kFanout);
    return span;
}
} // namespace

void TimeSeriesStore::Bucket::merge(const Bucket& other)
{
    tMin = std::min(tMin, other.tMin);
    tMax = std::max(tMax, other.tMax);
    // fmin/fmax skip an unknown (NaN) reading: a bucket is NaN only when every sample in it was unknown.
    for (std::size_t m = 0; m < lo.size(); ++m) {
        lo[m] = std::fmin(lo[m], other.lo[m]);
        hi[m] = std::fmax(hi[m], other.hi[m]);
    }
}

TimeSeriesStore::TimeSeriesStore(double historySeconds)
    : m_history(historySeconds > 0 ? historySeconds : 3600.0)
{ }

void TimeSeriesStore::setHistorySeconds(double seconds)
{
    if (seconds <= 0) return;
    m_history = seconds;
    for (auto& s : m_groups)
        trim(s);
}

int TimeSeriesStore::groupIndex(const QString& group)
{
    for (std::size_t i = 0; i < m_groups.size(); ++i) {
        if (m_groups[i].name == group) return static_cast<int>(i);
    }
    m_groups.emplace_back();
    m_groups.back().name = group;
    return static_cast<int>(m_groups.size() - 1);
}

QString TimeSeriesStore::groupName(int index) const
{
    if (index < 0 || index >= groupCount()) return {};
    return m_groups[static_cast<std::size_t>(index)].name;
}

QStringList TimeSeriesStore::groupNames() const
{
    QStringList names;
    names.reserve(groupCount());
    for (const auto& s : m_groups)
        names.append(s.name);
    return names;
}

bool TimeSeriesStore::append(int group, double t, const std::array<double, kMetricCount>& values)
{
    if (group < 0 || group >= groupCount() || !std::isfinite(t)) return false;
    auto& s = m_groups[static_cast<std::size_t>(group)];
    if (!s.levels[0].empty() && t < s.levels[0].back().tMax) return false;

    Bucket b;
    b.tMin = b.tMax = t;
    for (std::size_t m = 0; m < values.size(); ++m) {
        // NaN is an unknown reading (a flagged sample, FramePump::ingest): kept, so the plot shows a gap; infinities
        // are no reading either.
        const double v = std::isfinite(values[m]) ? values[m] : std::numeric_limits<double>::quiet_NaN();
        b.lo[m] = b.hi[m] = static_cast<float>(v);
    }
    s.levels[0].push_back(b);

    // Carry the new sample up the pyramid: a level's open bucket is complete after kFanout children.
    Bucket carry = b;
    for (std::size_t l = 1; l < static_cast<std::size_t>(kLevels); ++l) {
        if (s.openCount[l] == 0)
            s.open[l] = carry;
        else
            s.open[l].merge(carry);
        if (++s.openCount[l] < kFanout) break;
        s.levels[l].push_back(s.open[l]);
        carry = s.open[l];
        s.openCount[l] = 0;
    }
    trim(s);
    return true;
}

void TimeSeriesStore::clear()
{
    m_groups.clear();
}

void TimeSeriesStore::trim(Series& s)
{
    if (s.levels[0].empty()) return;
    const double cutoff = s.levels[0].back().tMax - m_history;
    for (auto& level : s.levels) {
        while (!level.empty() && level.front().tMax < cutoff)
            level.pop_front();
    }
}

std::size_t TimeSeriesStore::sampleCount(int group) const
{
    if (group < 0 || group >= groupCount()) return 0;
    return m_groups[static_cast<std::size_t>(group)].levels[0].size();
}

std::size_t TimeSeriesStore::sampleCountIn(int group, double t0, double t1) const
{
    if (group < 0 || group >= groupCount() || !(t1 >= t0)) return 0;
    const auto& raw = m_groups[static_cast<std::size_t>(group)].levels[0];
    const auto i0 = firstAtOrAfter(raw, t0);
    const auto i1 = firstAtOrAfter(raw, std::nextafter(t1, std::numeric_limits<double>::max()));
    return i1 > i0 ? i1 - i0 : 0;
}

double TimeSeriesStore::newestTime(int group) const
{
    if (group < 0 || group >= groupCount() || m_groups[static_cast<std::size_t>(group)].levels[0].empty())
        return std::numeric_limits<double>::lowest();
    return m_groups[static_cast<std::size_t>(group)].levels[0].back().tMax;
}

std::pair<double, double> TimeSeriesStore::timeRange() const
{
    double lo = std::numeric_limits<double>::max();
    double hi = std::numeric_limits<double>::lowest();
    for (const auto& s : m_groups) {
        if (s.levels[0].empty()) continue;
        lo = std::min(lo, s.levels[0].front().tMin);
        hi = std::max(hi, s.levels[0].back().tMax);
    }
    if (lo > hi) return { 0.0, 0.0 };
    return { lo, hi };
}

std::size_t TimeSeriesStore::firstAtOrAfter(const std::deque<Bucket>& level, double t)
{
    const auto it
        = std::lower_bound(level.begin(), level.end(), t, [](const Bucket& b, double key) { return b.tMax < key; });
    return static_cast<std::size_t>(it - level.begin());
}

namespace {
/// Picks the coarsest level whose buckets are still no wider than a column (at least one bucket per column), so a
/// peak is drawn at most 1.5 columns away from where it happened.
int chooseLevel(std::size_t rawInRange, int columns, const std::array<std::size_t, TimeSeriesStore::kLevels>& sizes)
{
    int level = 0;
    for (int l = 1; l < TimeSeriesStore::kLevels; ++l) {
        if (sizes[static_cast<std::size_t>(l)] == 0) break;
        if (levelSpan(l) * static_cast<std::size_t>(columns) > rawInRange) break;
        level = l;
    }
    return level;
}
} // namespace

DecimatedSeries TimeSeriesStore::decimate(int group, Metric metric, double t0, double t1, int columns) const
{
    DecimatedSeries out;
    if (group < 0 || group >= groupCount() || columns <= 0 || !(t1 > t0)) return out;
    const auto& s = m_groups[static_cast<std::size_t>(group)];
    const auto& raw = s.levels[0];
    const auto m = static_cast<std::size_t>(metric);

    // One point either side of the window so the line runs to the plot's edges.
    auto i0 = firstAtOrAfter(raw, t0);
    auto i1 = firstAtOrAfter(raw, std::nextafter(t1, std::numeric_limits<double>::max()));
    if (i0 > 0) --i0;
    if (i1 < raw.size()) ++i1;
    if (i1 <= i0) return out;
    const std::size_t n = i1 - i0;
    const auto cols = static_cast<std::size_t>(columns);
    if (n <= 2 * cols) {
        out.keys.reserve(n);
        out.values.reserve(n);
        for (auto i = i0; i < i1; ++i) {
            out.keys.push_back(raw[i].tMin);
            out.values.push_back(static_cast<double>(raw[i].lo[m]));
        }
        return out;
    }

    std::array<std::size_t, kLevels> sizes {};
    for (std::size_t l = 0; l < sizes.size(); ++l)
        sizes[l] = s.levels[l].size();
    const int level = chooseLevel(n, columns, sizes);
    const auto& buckets = s.levels[static_cast<std::size_t>(level)];
    const double w = (t1 - t0) / static_cast<double>(columns);

    out.keys.reserve(2 * cols + 4);
    out.values.reserve(2 * cols + 4);
    long current = std::numeric_limits<long>::min();
    float lo = 0;
    float hi = 0;
    auto flush = [&] {
        if (current == std::numeric_limits<long>::min()) return;
        const double key = t0 + (static_cast<double>(current) + 0.5) * w;
        out.keys.push_back(key);
        out.values.push_back(static_cast<double>(lo));
        if (hi != lo && !std::isnan(hi)) {
            out.keys.push_back(key);
            out.values.push_back(static_cast<double>(hi));
        }
    };
    auto visit = [&](const Bucket& b) {
        const long c = std::lround(std::floor((b.tMin - t0) / w));
        if (c != current) {
            flush();
            current = c;
            lo = b.lo[m];
            hi = b.hi[m];
        } else {
            lo = std::fmin(lo, b.lo[m]);
            hi = std::fmax(hi, b.hi[m]);
        }
    };

    double coveredUntil = std::numeric_limits<double>::lowest();
    for (auto i = firstAtOrAfter(buckets, t0 - w); i < buckets.size() && buckets[i].tMin <= t1 + w; ++i) {
        visit(buckets[i]);
        coveredUntil = buckets[i].tMax;
    }
    // Raw samples newer than the last complete bucket of the chosen level (fewer than kFanout^level of them).
    for (auto i = firstAtOrAfter(raw, std::max(t0 - w, coveredUntil)); i < raw.size() && raw[i].tMin <= t1 + w; ++i) {
        if (raw[i].tMin > coveredUntil) visit(raw[i]);
    }
    flush();
    return out;
}

double TimeSeriesStore::maxValue(Metric metric, double t0, double t1) const
{
    const auto m = static_cast<std::size_t>(metric);
    float best = 0;
    for (const auto& s : m_groups) {
        const auto& raw = s.levels[0];
        const auto i0 = firstAtOrAfter(raw, t0);
        const auto i1 = firstAtOrAfter(raw, std::nextafter(t1, std::numeric_limits<double>::max()));
        if (i1 <= i0) continue;
        std::array<std::size_t, kLevels> sizes {};
        for (std::size_t l = 0; l < sizes.size(); ++l)
            sizes[l] = s.levels[l].size();
        // Several buckets per column of an imaginary 16-column chart: a bucket straddling t0 may add a peak
        // from just outside the window, which only makes the axis a little roomier.
        const int level = chooseLevel(i1 - i0, 16, sizes);
        const auto& buckets = s.levels[static_cast<std::size_t>(level)];
        double coveredUntil = std::numeric_limits<double>::lowest();
        for (auto i = firstAtOrAfter(buckets, t0); i < buckets.size() && buckets[i].tMin <= t1; ++i) {
            best = std::fmax(best, buckets[i].hi[m]);
            coveredUntil = buckets[i].tMax;
        }
        for (auto i = firstAtOrAfter(raw, std::max(t0, coveredUntil)); i < i1; ++i) {
            if (raw[i].tMin > coveredUntil) best = std::fmax(best, raw[i].hi[m]);
        }
    }
    return static_cast<double>(best);
}

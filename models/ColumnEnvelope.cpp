// SPDX-License-Identifier: GPL-3.0-or-later
#include "ColumnEnvelope.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {
// Beyond this many new columns in one step a rebuild through the pyramid is cheaper than folding raw samples.
constexpr std::int64_t kMaxIncrementalColumns = 64;
} // namespace

void ColumnEnvelope::clear()
{
    m_columns.clear();
    m_valid = false;
}

std::int64_t ColumnEnvelope::columnOf(double t) const
{
    return static_cast<std::int64_t>(std::floor(t / m_width));
}

void ColumnEnvelope::fold(double t, float value)
{
    const std::int64_t c = columnOf(t);
    if (!m_columns.empty() && m_columns.back().index == c) {
        m_columns.back().lo = std::fmin(m_columns.back().lo, value);
        m_columns.back().hi = std::fmax(m_columns.back().hi, value);
        return;
    }
    if (!m_columns.empty() && c < m_columns.back().index) {
        // An older column (a pyramid bucket of the rebuild already reached past t): min/max stay correct.
        const auto it = std::lower_bound(m_columns.begin(), m_columns.end(), c,
            [](const Column& col, std::int64_t index) { return col.index < index; });
        if (it != m_columns.end() && it->index == c) {
            it->lo = std::fmin(it->lo, value);
            it->hi = std::fmax(it->hi, value);
        } else {
            m_columns.insert(it, Column { c, value, value });
        }
        return;
    }
    m_columns.push_back(Column { c, value, value });
}

void ColumnEnvelope::rebuild(const TimeSeriesStore& store, int group, Metric metric, double t0, double t1)
{
    ++m_rebuilds;
    m_columns.clear();
    m_firstColumn = columnOf(t0) - 1;
    const std::int64_t lastColumn = columnOf(t1) + 1;
    const double a = static_cast<double>(m_firstColumn) * m_width;
    const double b = static_cast<double>(lastColumn + 1) * m_width;
    // decimate() on the absolute grid [a, b): its keys are column centres (or raw times when sparse), so each
    // point folds back into exactly the column it was reduced for.
    const auto d = store.decimate(group, metric, a, b, static_cast<int>(lastColumn + 1 - m_firstColumn));
    for (std::size_t i = 0; i < d.keys.size(); ++i) {
        if (d.keys[i] >= a && d.keys[i] < b) fold(d.keys[i], static_cast<float>(d.values[i]));
    }
    m_until = std::min(b, store.newestTime(group));
    // Columns past m_until are incomplete (only a bucket's early part reached them): drop them, the next step
    // folds their samples in.
    const std::int64_t complete = columnOf(m_until);
    while (!m_columns.empty() && m_columns.back().index > complete)
        m_columns.pop_back();
    m_valid = true;
}

bool ColumnEnvelope::update(const TimeSeriesStore& store, int group, Metric metric, double t0, double t1, int columns)
{
    if (columns <= 0 || !(t1 > t0)) {
        const bool changed = !m_columns.empty();
        clear();
        return changed;
    }
    const double width = (t1 - t0) / columns;
    // Following recomputes [now - window, now] every frame; rounding must not count as a zoom.
    const bool sameWidth = m_valid && std::abs(width - m_width) <= 1e-9 * m_width;
    if (!sameWidth) m_width = width;
    const double newest = store.newestTime(group);
    const std::int64_t first = columnOf(t0) - 1;
    const std::int64_t last = columnOf(t1) + 1;
    const bool incremental = sameWidth && first >= m_firstColumn && newest >= m_until
        && columnOf(std::min(newest, static_cast<double>(last + 1) * m_width)) - columnOf(m_until)
            <= kMaxIncrementalColumns;
    if (!incremental) {
        rebuild(store, group, metric, t0, t1);
        return true;
    }

    bool changed = false;
    while (!m_columns.empty() && m_columns.front().index < first) {
        m_columns.pop_front();
        changed = true;
    }
    m_firstColumn = first;
    const double b = static_cast<double>(last + 1) * m_width;
    const auto m = static_cast<std::size_t>(metric);
    // A second sample with exactly the newest time (the store accepts equal times) is skipped here until the
    // next rebuild; samplers never repeat a timestamp, so this only matters for hand-made series.
    const double from = m_until;
    store.forEachRaw(group, from, b, [&](double t, const std::array<double, kMetricCount>& v) {
        if (t <= from || t >= b) return;
        fold(t, static_cast<float>(v[m]));
        m_until = t;
        changed = true;
    });
    return changed;
}

double ColumnEnvelope::maxIn(double t0, double t1) const
{
    // Columns whose centre (where they are drawn) lies in the view: a column straddling the left edge mostly
    // holds what scrolled out, and must not keep the axis tall after a drop (the fence marker case).
    float best = 0;
    for (auto it = m_columns.rbegin(); it != m_columns.rend(); ++it) {
        const double key = keyOf(*it);
        if (key < t0) break;
        if (key <= t1) best = std::fmax(best, it->hi);
    }
    return static_cast<double>(best);
}

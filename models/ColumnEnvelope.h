// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/TimeSeriesStore.h"

#include <cstdint>
#include <deque>

/// The min/max envelope of one series on a fixed, absolute column grid (column c covers [c*w, (c+1)*w)), kept
/// up to date incrementally: while the column width stays the same and the view only slides forward (follow
/// mode), a frame folds in the few new raw samples and drops the columns that left the view, instead of
/// re-reducing the whole window through the store's pyramid (128 series x 2,250 buckets every frame was a
/// quarter of the dashboard's frame time). Anything else (zoom, resize, pan back, a jump) rebuilds the envelope
/// from TimeSeriesStore::decimate, which keeps peaks the same way. Min/max folding is idempotent, so a sample
/// that a rebuild and the next incremental step both see cannot distort the envelope.
class ColumnEnvelope {
public:
    struct Column {
        std::int64_t index = 0;
        float lo = 0;
        float hi = 0;
    };

    /// Brings the envelope to the view [t0, t1] with `columns` columns. Returns true when any column changed.
    bool update(const TimeSeriesStore& store, int group, Metric metric, double t0, double t1, int columns);
    void clear();

    /// Columns in time order, one either side of the view included so lines run to the plot's edges.
    const std::deque<Column>& columns() const { return m_columns; }
    double columnWidth() const { return m_width; }
    /// Key (seconds) at which a column is drawn: its centre.
    double keyOf(const Column& c) const { return (static_cast<double>(c.index) + 0.5) * m_width; }
    /// Largest value among the columns drawn inside [t0, t1] (axis scaling); 0 when none.
    double maxIn(double t0, double t1) const;
    /// Number of full rebuilds so far (tests check that following does not rebuild every frame).
    int rebuilds() const { return m_rebuilds; }

private:
    void rebuild(const TimeSeriesStore& store, int group, Metric metric, double t0, double t1);
    void fold(double t, float value);
    std::int64_t columnOf(double t) const;

    std::deque<Column> m_columns;
    double m_width = 0;
    std::int64_t m_firstColumn = 0; ///< first column the envelope is complete from
    double m_until = 0; ///< every store sample with time <= m_until has been folded in
    bool m_valid = false;
    int m_rebuilds = 0;
};

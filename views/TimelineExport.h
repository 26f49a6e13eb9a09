// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <utility>

class FramePump;
class QCPLayoutGrid;
class QCustomPlot;

/// The timelines as files: PNG and SVG of the plot as shown, and CSV of the plotted series' samples (the rows of
/// `monitor --csv`) with the allocation-change markers. On screen the group list beside the plot names the groups;
/// a file has no group list, so this class owns the plot's legend and puts it in the plot only while it draws a file.
/// Its own class: what a file must carry differs from what the screen shows.
class TimelineExport {
    Q_DECLARE_TR_FUNCTIONS(TimelineExport)
public:
    /// Gives `plot` a legend (hidden from the screen) that lists the groups whose graphs are added to it.
    explicit TimelineExport(QCustomPlot* plot);

    /// Return false and set *error (what failed, why) on failure.
    bool writePng(const QString& path, QString* error) const;
    bool writeSvg(const QString& path, QString* error) const;
    /// The samples of `pump`'s store within `range` (timeline seconds) of every group `shown` accepts (by store
    /// index), then the markers within it.
    static bool writeCsv(const QString& path, const FramePump* pump, std::pair<double, double> range,
        const std::function<bool(int)>& shown, QString* error);

private:
    void showLegend(bool shown) const;

    QCustomPlot* m_plot;
    QCPLayoutGrid* m_legend = nullptr; ///< holds the in-plot legend; in the plot's layout only while exporting
};

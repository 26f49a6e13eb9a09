// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/TimeSeriesStore.h"

#include <QWidget>

#include <array>

class QCheckBox;
class QComboBox;
class QToolButton;

/// The controls above the timelines: Follow, the time window shown while following, which metrics are plotted,
/// Clear range (shown while a range is selected) and the Export menu (which asks for a file name). Its own widget so
/// that TimelineView deals in values (follow on or off, seconds, metrics, a file to write), not in check boxes.
class TimelineToolbar : public QWidget {
    Q_OBJECT
public:
    enum class ExportFormat { Png, Svg, Csv };

    /// `metricsShown`: which metric boxes start checked; the window starts at 5 min and Follow on.
    TimelineToolbar(const std::array<bool, kMetricCount>& metricsShown, QWidget* parent);

    /// These update the controls; each emits its signal only when the control changed.
    void setFollow(bool follow);
    void setWindowSeconds(double seconds);
    void setMetricChecked(Metric metric, bool checked);
    void setClearRangeVisible(bool visible);

Q_SIGNALS:
    void followToggled(bool follow);
    void windowChosen(double seconds);
    void metricToggled(Metric metric, bool shown);
    void clearRangeClicked();
    /// The user chose a format in the Export menu and a file name for it.
    void exportRequested(ExportFormat format, const QString& path);

private:
    QCheckBox* m_followBox = nullptr;
    QComboBox* m_windowBox = nullptr;
    std::array<QCheckBox*, kMetricCount> m_metricBoxes {};
    QToolButton* m_clearRangeButton = nullptr;
    QToolButton* m_exportButton = nullptr;
};

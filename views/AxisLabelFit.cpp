// SPDX-License-Identifier: GPL-3.0-or-later
#include "AxisLabelFit.h"

#include "QCustomPlotInclude.h"
#include <QFontMetrics>

bool fitAxisLabel(QCPAxis* axis, const QStringList& candidates)
{
    if (!axis || candidates.isEmpty()) return false;
    const QFontMetrics metrics(axis->labelFont());
    const int room = axis->axisRect()->height() - 4;
    QString chosen = candidates.last();
    for (const QString& label : candidates) {
        if (metrics.horizontalAdvance(label) <= room) {
            chosen = label;
            break;
        }
    }
    if (axis->label() == chosen) return false;
    axis->setLabel(chosen);
    return true;
}

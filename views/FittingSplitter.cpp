// SPDX-License-Identifier: GPL-3.0-or-later
#include "FittingSplitter.h"

#include <QResizeEvent>
#include <QTimer>

#include <algorithm>

FittingSplitter::FittingSplitter(QWidget* parent)
    : QSplitter(Qt::Horizontal, parent)
{ }

int FittingSplitter::sideBySideWidth() const
{
    int width = 0, shown = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget* w = widget(i);
        if (w->isHidden()) continue;
        width += std::max(w->minimumSizeHint().width(), w->minimumWidth());
        ++shown;
    }
    return width + std::max(0, shown - 1) * handleWidth();
}

QSize FittingSplitter::minimumSizeHint() const
{
    int width = 0, tallest = 0, stacked = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget* w = widget(i);
        if (w->isHidden()) continue;
        const QSize m = w->minimumSizeHint().expandedTo(w->minimumSize());
        width = std::max(width, m.width());
        tallest = std::max(tallest, m.height());
        stacked += m.height() + handleWidth();
    }
    return { width, orientation() == Qt::Horizontal ? tallest : stacked };
}

void FittingSplitter::resizeEvent(QResizeEvent* event)
{
    QSplitter::resizeEvent(event);
    // Changing the orientation inside a resize would resize again from within: once the event is done.
    if (!m_fitting) {
        m_fitting = true;
        QTimer::singleShot(0, this, [this] {
            m_fitting = false;
            fitOrientation();
        });
    }
}

void FittingSplitter::fitOrientation()
{
    const int need = sideBySideWidth();
    // A little room to spare before going back side by side, so a width near the limit does not flip to and fro.
    const Qt::Orientation wanted
        = width() >= need + (orientation() == Qt::Vertical ? 24 : 0) ? Qt::Horizontal : Qt::Vertical;
    if (wanted == orientation()) return;
    setOrientation(wanted);
    if (wanted == Qt::Vertical && count() == 2) // the first (the heatmap) takes three fifths, the second the rest
        setSizes({ height() * 3 / 5, height() - height() * 3 / 5 });
    updateGeometry(); // the minimum height changed with the orientation
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "PlotPalette.h"

#include "QCustomPlotInclude.h"

#include <QEvent>
#include <QPalette>

namespace {
class PlotPaletteFollower : public QObject {
public:
    explicit PlotPaletteFollower(QCustomPlot* plot)
        : QObject(plot)
        , m_plot(plot)
    {
        plot->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::PaletteChange) applyPlotPalette(m_plot, m_plot->palette());
        return false;
    }

private:
    QCustomPlot* m_plot;
};
} // namespace

void keepPlotPalette(QCustomPlot* plot)
{
    applyPlotPalette(plot, plot->palette());
    new PlotPaletteFollower(plot);
}

void applyPlotPalette(QCustomPlot* plot, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::Text);
    QColor grid = palette.color(QPalette::Mid);
    grid.setAlpha(110);
    plot->setBackground(palette.brush(QPalette::Base));
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(palette.brush(QPalette::Base));
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text));
            axis->setTickPen(QPen(text));
            axis->setSubTickPen(QPen(text));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        }
    }
    // Every legend, including those in an axis rect's inset layout (elements(true) descends into them).
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* legend = qobject_cast<QCPLegend*>(e)) {
            legend->setBrush(palette.brush(QPalette::Base));
            legend->setTextColor(text);
            legend->setBorderPen(QPen(palette.color(QPalette::Mid)));
            for (int i = 0; i < legend->itemCount(); ++i) // items copy the legend's colour when they are made
                if (legend->item(i)) legend->item(i)->setTextColor(text);
        }
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

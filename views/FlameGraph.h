// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A flame graph of the top-down call tree (rdt::pmu::CallTreeReport::topDown), painted with QPainter: the outermost
// callers at the bottom, each frame as wide as its share of the samples, its callees stacked on it. Hovering a frame
// names its function, module, samples and share; clicking zooms into it (it spans the width, its callers are drawn
// full width beneath it, greyed); clicking a greyed caller zooms out to it; resetZoom() (Escape, a double click on
// the background, or the page's Reset button) shows the whole tree again.

#include "pmu/CallTree.h"

#include <QRectF>
#include <QString>
#include <QWidget>

#include <vector>

class FlameGraph : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraph(QWidget* parent = nullptr);

    /// Shows the top-down tree of `report`; keeps the zoom when the same call path still exists.
    void setReport(const rdt::pmu::CallTreeReport& report);
    /// Zooms into node `node` of the top-down tree (0: the whole tree).
    void zoomTo(std::int32_t node);
    void resetZoom() { zoomTo(0); }
    std::int32_t zoomedNode() const { return m_zoom; }
    /// Samples of the whole tree (the root's inclusive samples), what the frames at the bottom add up to.
    quint64 totalSamples() const;
    /// Samples under the bottom row of frames drawn (the zoomed node's, or the whole tree's).
    quint64 shownSamples() const;
    /// The top-down node drawn at `pos` (widget coordinates), -1 for none; the root is never a frame.
    std::int32_t nodeAt(const QPointF& pos) const;
    /// The frame of `node` in widget coordinates (empty when it is not drawn: too narrow, or outside the zoom).
    QRectF frameRect(std::int32_t node) const;
    /// The text the tooltip shows for `node`.
    QString describe(std::int32_t node) const;
    const std::vector<rdt::pmu::CallTreeNode>& nodes() const { return m_nodes; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void zoomChanged(std::int32_t node);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Frame {
        std::int32_t node = 0;
        QRectF rect;
        bool ancestor = false; ///< a caller of the zoomed node, drawn full width and greyed
    };
    void layoutFrames();
    void place(std::int32_t node, int depth, double x, double width, double unit);
    std::vector<std::int32_t> pathTo(std::int32_t node) const;
    int rowHeight() const;

    std::vector<rdt::pmu::CallTreeNode> m_nodes; ///< [0] is the root
    std::size_t m_depth = 0;
    std::int32_t m_zoom = 0;
    std::vector<Frame> m_frames;
};

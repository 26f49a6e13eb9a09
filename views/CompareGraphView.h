// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The compare window's branch call graph: the call edges that changed most (capture/compare's lbr-call rows),
// laid out by Graphviz dot, each edge coloured by its change in share (blue: cooler in B, orange: hotter in B,
// the colour-blind-safe pair of CompareDiffModel), its width by its larger share, dashed when it exists on one
// side only. A legend explains the colours.

#include "compare/Compare.h"

#include <QWidget>

class QGraphicsScene;
class QGraphicsView;
class QLabel;

class CompareGraphView : public QWidget {
    Q_OBJECT
public:
    explicit CompareGraphView(QWidget* parent = nullptr);
    /// Shows the `maxEdges` call edges with the largest change.
    void setComparison(const rdt::compare::Comparison& c, int maxEdges = 40);
    int edgeCount() const { return m_edges; }
    QGraphicsScene* scene() const { return m_scene; }

private:
    QGraphicsScene* m_scene;
    QGraphicsView* m_view;
    QLabel* m_status;
    int m_edges = 0;
};

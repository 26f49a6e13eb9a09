// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The branch call graph (LBR; docs/PMU.md "Call graphs from LBR"): functions as boxes sized by samples, call edges with
// width by count and colour by mispredict rate (green 0 % .. red >= 20 %), laid out by Graphviz dot on a worker thread
// (results of an older request are dropped by generation id), drawn in a QGraphicsView with wheel zoom and drag
// pan. A search box highlights and centres matching functions; Focus keeps a function's callers and callees
// within N hops. Beside it: the hot-branch table (count, mispredicts, cycles) and the selected function's
// callers and callees.

#include "views/GraphvizLayout.h"

#include <QHash>
#include <QSet>
#include <QWidget>

class CallGraphModel;
class ElidedLabel;
class PmuSession;
class QGraphicsScene;
class QGraphicsView;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;
class QThreadPool;
class QGraphicsRectItem;

class CallGraphView : public QWidget {
    Q_OBJECT
public:
    explicit CallGraphView(PmuSession* session, QWidget* parent = nullptr);
    ~CallGraphView() override;

    /// At most this many functions (by inclusive, then self samples) are drawn; the rest are listed as hidden.
    void setMaxNodes(int n);
    /// Keeps `function` and the functions within `hops` call edges of it; empty: every function again.
    void focusFunction(const QString& function, int hops);
    void showAll() { focusFunction({}, 0); }
    /// Highlights functions whose name contains `text` and centres the view on the first.
    void setSearchText(const QString& text);
    /// Selects a function: highlighted, its callers and callees in the side tables.
    void selectFunction(const QString& function);

    // Introspection for tests and the benchmark.
    quint64 generation() const { return m_generation; }
    bool layoutPending() const { return m_pending; }
    int nodeCount() const { return static_cast<int>(m_nodeItems.size()); }
    bool hasNode(const QString& function) const { return m_nodeItems.contains(function); }
    QString nodeLabel(const QString& function) const;
    /// The node's box in viewport coordinates (empty when absent).
    QRect nodeViewportRect(const QString& function) const;
    QStringList highlighted() const;
    double lastLayoutMs() const { return m_lastLayoutMs; }
    QGraphicsView* canvas() const { return m_view; }
    CallGraphModel* hotBranches() const { return m_hot; }
    CallGraphModel* callers() const { return m_callers; }
    CallGraphModel* callees() const { return m_callees; }

Q_SIGNALS:
    void layoutFinished(quint64 generation, double milliseconds);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void restyle();
    void requestLayout();
    void applyLayout(quint64 generation, const LayoutResult& result, double ms);

    PmuSession* m_session;
    CallGraphModel* m_hot;
    CallGraphModel* m_callers;
    CallGraphModel* m_callees;
    QGraphicsScene* m_scene;
    QGraphicsView* m_view;
    QLineEdit* m_search;
    QSpinBox* m_hops;
    ElidedLabel* m_status;
    QTableView* m_hotTable;
    QThreadPool* m_pool;

    int m_maxNodes = 150;
    QString m_focus;
    int m_focusHops = 2;
    QString m_selected;
    quint64 m_generation = 0;
    bool m_pending = false;
    double m_lastLayoutMs = 0;
    int m_hidden = 0;
    /// What the newest layout request draws (node i = LayoutGraph node i), copied so a result never reads a
    /// report that changed meanwhile (it is dropped then anyway, by generation).
    struct Drawn {
        QString name;
        quint64 self = 0, inclusive = 0;
    };
    struct DrawnEdge {
        int from = 0, to = 0;
        quint64 count = 0;
        double mispredictRate = 0;
        double avgCycles = 0;
    };
    std::vector<Drawn> m_drawn;
    std::vector<DrawnEdge> m_drawnEdges;
    QHash<QString, QGraphicsRectItem*> m_nodeItems;
    QSet<QString> m_highlight;
};

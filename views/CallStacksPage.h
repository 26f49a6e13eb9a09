// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The call-stack page of the PMU views: the branch call graph, a top-down tree, a bottom-up tree and a flame graph of
// the sampled call stacks (LBR call stacks and frame-pointer callchains; docs/PMU.md "Call trees and flame graph"),
// all over the session's time range (the TMA plot's or the RDT timeline's selection, or the From/To boxes here) and
// narrowed to one thread and/or CPU (PmuSession::setStackFilter). The totals line says how many samples the trees
// hold of how many in the range; with no call stacks at all the trees say why and which perf record option would
// have recorded them (pmu::CallStackSources::whyNone).

#include <QList>
#include <QWidget>

class CallGraphView;
class CallTreeView;
class FlameGraph;
class PmuSession;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTabWidget;

class CallStacksPage : public QWidget {
    Q_OBJECT
public:
    /// Takes `graph` (the branch call graph view of the same session) as its first tab.
    CallStacksPage(PmuSession* session, CallGraphView* graph, QWidget* parent = nullptr);

    enum Tab { GraphTab, TopDownTab, BottomUpTab, FlameTab };
    void showTab(Tab tab);
    QTabWidget* tabs() const { return m_tabs; }
    CallTreeView* topDown() const { return m_topDown; }
    CallTreeView* bottomUp() const { return m_bottomUp; }
    FlameGraph* flameGraph() const { return m_flame; }
    QComboBox* threadFilter() const { return m_thread; }
    QComboBox* cpuFilter() const { return m_cpu; }
    /// The totals line ("N samples of M in the range ...") or why there are no call stacks.
    QString statusText() const;

private:
    void refresh();
    void refillFilters();
    void applyFilters();
    void showRange(double from, double to, bool active);

    PmuSession* m_session;
    QTabWidget* m_tabs;
    CallTreeView* m_topDown;
    CallTreeView* m_bottomUp;
    FlameGraph* m_flame;
    /// Top-down, bottom-up and flame graph tabs: the view, or the "why no call stacks" text in its place.
    QList<QStackedWidget*> m_reasonStacks;
    QList<QLabel*> m_reasons;
    QComboBox* m_thread;
    QComboBox* m_cpu;
    QDoubleSpinBox* m_from;
    QDoubleSpinBox* m_to;
    QPushButton* m_clearRange;
    QPushButton* m_resetZoom;
    QLabel* m_status;
    bool m_filling = false;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// File > Compare with...: a window comparing two recordings (issue #20). A header names both files and lists the
// mismatches; tabs show the diff table per section (largest change first), the two timelines on a shared
// relative axis, the cache-way heatmaps side by side, TMA and latency distributions overlaid, and the branch
// call graph coloured by change. Swap A/B and Export CSV act on the whole comparison.

#include <QMainWindow>

class CompareSession;
class CompareDiffModel;
class CompareTimelines;
class CompareWays;
class CompareOverlay;
class CompareGraphView;
class QComboBox;
class QLabel;
class QTableView;
class QTabWidget;

class CompareWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);

    /// Loads and compares; the window fills in when the worker is done.
    void open(const QString& pathA, const QString& pathB);
    CompareSession* session() const { return m_session; }
    CompareDiffModel* diffModel() const { return m_model; }
    CompareTimelines* timelines() const { return m_timelines; }
    QTabWidget* tabs() const { return m_tabs; }
    /// Shows the diff table of one section ("rdt", "allocation", ...; "" for all).
    void showSection(const QString& section);
    /// Turns to a page: "table", "timelines", "ways", "overlay" or "graph" (anything else: the table).
    void showPage(const QString& page);
    /// Aligns the timelines at a marker's text ("" = at the start).
    void alignAt(const QString& marker);

private:
    void refresh();
    void exportCsv();
    /// Hides columns the shown section leaves empty and stretches the widest text column, so no empty column
    /// takes the table's width.
    void fitTableColumns();

    CompareSession* m_session;
    CompareDiffModel* m_model;
    QLabel* m_header;
    QLabel* m_mismatches;
    QTabWidget* m_tabs;
    QComboBox* m_sections;
    QTableView* m_table;
    CompareTimelines* m_timelines;
    QComboBox* m_align;
    CompareWays* m_ways;
    CompareOverlay* m_overlay;
    CompareGraphView* m_graph;
};

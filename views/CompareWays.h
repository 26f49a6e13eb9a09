// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The compare window's cache-way heatmaps, A and B side by side: one row per group, one cell per L3 way (CBM
// bit), filled where the group's mask at the window's end allows it, in the group's colour; cells that differ
// between A and B are outlined in B. Below each grid, the group's mean LLC occupancy in the window.

#include "compare/Compare.h"

#include <QWidget>

class CompareWays : public QWidget {
    Q_OBJECT
public:
    explicit CompareWays(QWidget* parent = nullptr);
    void setComparison(const rdt::compare::Comparison& c);
    QSize sizeHint() const override { return { 900, 320 }; }
    /// Groups shown (rows), for tests.
    QStringList groups() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Row {
        QString group;
        std::uint64_t maskA = 0, maskB = 0;
        bool inA = false, inB = false;
        double occA = 0, occB = 0;
    };
    std::vector<Row> m_rows;
    int m_bits = 0;
    QString m_resource = QStringLiteral("L3");
};

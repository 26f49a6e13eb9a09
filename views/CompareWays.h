// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The compare window's cache-way heatmaps, A and B side by side: one row per group, one cell per L3 way (CBM
// bit), filled where the group's mask at the window's end allows it, in the group's colour; cells that differ
// between A and B are outlined in B. Right of each grid, the group's mean LLC occupancy in the window. One L3
// domain at a time, chosen in the page's Domain box (every domain either file has); the diff table has them all.
// With CDP a group has two rows, its code and its data mask.

#include "compare/Compare.h"

#include <QWidget>

#include <map>

class QComboBox;

class CompareWays : public QWidget {
    Q_OBJECT
public:
    explicit CompareWays(QWidget* parent = nullptr);
    void setComparison(const rdt::compare::Comparison& c);
    QSize sizeHint() const override { return { 900, 320 }; }
    /// Groups shown (rows) in the current domain, for tests.
    QStringList groups() const;
    /// The L3 domains either file holds, and the one shown.
    QList<int> domains() const;
    int domain() const { return m_domain; }
    void setDomain(int domain);
    /// The rows' masks shown for a group in the current domain ("" when absent), for tests.
    QString maskText(const QString& group, bool sideB) const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Row {
        QString group; ///< as shown: the group's label, with " (code)" or " (data)" for a CDP mask
        std::uint64_t maskA = 0, maskB = 0;
        bool inA = false, inB = false;
        double occA = 0, occB = 0;
    };
    const std::vector<Row>& rows() const;
    std::map<int, std::vector<Row>> m_byDomain;
    int m_domain = 0;
    QComboBox* m_domainBox = nullptr;
    int m_bits = 0;
    QString m_resource = QStringLiteral("L3");
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// TMA (Top-down Microarchitecture Analysis) as a tree: the four level-1 categories, each with its two level-2
// children when the recipe measures them (Sapphire Rapids and later; Skylake-generation generic events). Columns:
// category, fraction of issue slots, explanation. Also holds the per-interval series for the stacked-area plot.
// Categories and their meaning: SDM 22.2.9.6 (slots), docs/PMU.md "TMA"; the level-2 split as the kernel's topdown.txt
// derives it.

#include "pmu/Tma.h"

#include <QAbstractItemModel>
#include <QString>

#include <vector>

class TmaModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { CategoryColumn, FractionColumn, ExplanationColumn, ColumnCount };
    enum Roles { FractionRole = Qt::UserRole + 1, KeyRole };

    /// The twelve categories in display order: level 1 at 0..3, then level 2 in pairs under their parent.
    struct Category {
        const char* key; ///< "retiring", "retiring.heavy", ...
        const char* name;
        const char* explanation; ///< one line, with the reference
        int parent; ///< -1 for level 1
        const char* measuredBy; ///< the events of a measured level-2 node per generation; nullptr when derived
    };
    static const std::vector<Category>& categories();
    /// The value of category `index` in a breakdown.
    static double value(const rdt::pmu::TmaBreakdown& b, int index);

    explicit TmaModel(QObject* parent = nullptr);

    void setBreakdown(const rdt::pmu::TmaBreakdown& breakdown);
    const rdt::pmu::TmaBreakdown& breakdown() const { return m_breakdown; }

    struct Point {
        double seconds = 0;
        rdt::pmu::TmaBreakdown breakdown;
    };
    void setSeries(std::vector<Point> series);
    const std::vector<Point>& series() const { return m_series; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int categoryOf(const QModelIndex& index) const; ///< -1 when invalid
    bool hasLevel2() const { return m_breakdown.valid && m_breakdown.level2.present; }

    rdt::pmu::TmaBreakdown m_breakdown;
    std::vector<Point> m_series;
};

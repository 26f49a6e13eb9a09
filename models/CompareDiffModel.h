// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The rows of a comparison (capture/compare) as a table for the GUI's compare window: one row per DiffRow of the
// chosen section, in the engine's order (largest change first). Values are formatted with the same helpers as
// `rdtscope-cli diff`; the change column is tinted with a colour-blind-safe diverging pair (blue = lower in B,
// orange = higher in B, CompareDiffModel::changeColor) whose strength follows the size of the change.

#include "compare/Compare.h"

#include <QAbstractTableModel>
#include <QColor>

#include <optional>

class CompareDiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ColGroup, ColDomain, ColItem, ColMetric, ColA, ColB, ColDelta, ColRatio, ColumnCount };
    /// Qt::UserRole on any column: the raw number behind the cell (A, B, delta, ratio), for sorting and tests.
    static constexpr int RawRole = Qt::UserRole + 1;

    explicit CompareDiffModel(QObject* parent = nullptr);

    /// Shows the rows of `c` (kept by value; rows of other sections are filtered out by setSection).
    void setComparison(const rdt::compare::Comparison& c);
    /// nullopt: every section.
    void setSection(std::optional<rdt::compare::Section> section);
    const rdt::compare::DiffRow* rowAt(int row) const;
    /// Whether any shown row has something in `column` (RDT rows have no item, function rows no group): the view
    /// hides a column that would be empty.
    bool columnUsed(int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Diverging colour for a change in [-1, 1] (negative: lower in B): blue (0x2166ac) to orange (0xe08214) through
    /// the base colour, from ColorBrewer's colour-blind-safe PuOr/RdBu schemes.
    static QColor changeColor(double signedStrength, const QColor& base = Qt::white);
    /// Signed strength of a row's change in [-1, 1], 0 when unchanged or one-sided.
    static double changeStrength(const rdt::compare::DiffRow& row);

private:
    void rebuild();
    rdt::compare::Comparison m_comparison;
    std::optional<rdt::compare::Section> m_section;
    std::vector<const rdt::compare::DiffRow*> m_rows;
};

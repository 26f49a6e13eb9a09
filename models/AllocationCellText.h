// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AllocationModel.h"

#include <QCoreApplication>
#include <QString>

/// The words for an AllocationModel's cells and rows: a cell's tooltip (mask, bytes, ways, who else uses the bit,
/// hardware-shared and I/O ways, errors), what a screen reader says for a cell (in the heatmap legend's words) and
/// the header tooltips. Its own class: the model decides what each cell is; this says it.
class AllocationCellText {
    Q_DECLARE_TR_FUNCTIONS(AllocationCellText)
public:
    explicit AllocationCellText(const AllocationModel& model);

    /// "allocated", "overlapping", ...: the legend's word for a state.
    static QString stateText(AllocationModel::CellState state);
    /// Group, domain, bit and state, e.g. "streamer, domain 0, bit 3: allocated, hardware-shared, staged edit".
    QString accessibleText(int row, int bit, int domain) const;
    /// The cell's tooltip in the model's current domain.
    QString toolTip(int row, int bit) const;
    /// The row header's tooltip: group, CLOSID, exclusive, mask.
    QString rowToolTip(int row) const;
    /// The column header's tooltip: what one CBM bit of this cache holds.
    QString columnToolTip(int bit) const;

private:
    const AllocationModel& m_model;
};

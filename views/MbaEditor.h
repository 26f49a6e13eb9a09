// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/AllocationBandwidthModel.h"

#include <QPointer>
#include <QWidget>

#include <array>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableView;

/// The MBA/CBA editor (issue 6 item 3): one row per CLOS, one column per domain. Editing a cell opens a spin box
/// that steps through the allowed values (linear steps of the granularity, or powers of two) and shows, beside
/// what is typed, the value that will really be applied after rounding (the kernel rounds MB up to
/// bandwidth_gran; SDM 20.19.7.2 rounds delays down). Without write access the table is read-only and a banner
/// says why (item 8).
///
/// Integration: `editor->setModel(allocationModel)` with the same AllocationModel as the heatmap (shared state,
/// writer and undo stack). The editor owns its AllocationBandwidthModel (bandwidthModel()).
class MbaEditor : public QWidget {
    Q_OBJECT
public:
    explicit MbaEditor(QWidget* parent = nullptr);

    void setModel(AllocationModel* model);
    AllocationBandwidthModel* bandwidthModel() const { return m_model; }
    QTableView* view() const { return m_view; }
    /// "" when editing is enabled, else "Editing disabled: <reason>. Monitoring still works."
    QString readOnlyText() const;
    /// The rule line: "MB: 10..100 % in steps of 10; the kernel rounds up to the next step".
    QString rulesText() const;
    /// What the last write did when the hardware's rounding changed the typed value ("" otherwise), e.g.
    /// "MB for p0, domain 0: 55 % typed, 60 % written (steps of 10, rounded up)".
    QString noteText() const;
    /// CBQRI MB_MIN's budget line ("MB_MIN budget (...): domain 72: 758 of 819 blocks reserved, 61 still fit"), ""
    /// when the control has no budget.
    QString budgetText() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    /// A cell was selected: "mba" (or "cba" for a CBA schema); connect to ExplainPanel::showConcept.
    void explainRequested(const QString& conceptId);

private:
    /// The width of the group names and the first `maxColumns` domain columns (all of them for -1).
    int columnsWidth(int maxColumns) const;
    void sync();
    void syncBudget();

    AllocationBandwidthModel* m_model;
    QPointer<AllocationModel> m_source;
    QComboBox* m_schemaBox;
    QLabel* m_rules;
    QLabel* m_budget;
    QLabel* m_banner;
    QLabel* m_status;
    QLabel* m_note;
    QTableView* m_view;
};

/// The cell editor: a spin box stepping through allowed values plus a label with the effective value.
/// Public so tests can drive it; object names "value" (QSpinBox) and "effective" (QLabel).
class BandwidthValueEditor : public QWidget {
    Q_OBJECT
public:
    BandwidthValueEditor(const BandwidthSchema& schema, QWidget* parent = nullptr);
    void setValue(unsigned value);
    unsigned requested() const;
    unsigned effective() const { return m_schema.effectiveValue(requested()); }
    QString effectiveText() const;

private:
    void updateEffective();
    BandwidthSchema m_schema;
    QSpinBox* m_spin;
    QLabel* m_effective;
};

/// The cell editor of a region's triple (MB_REGION<n>_MIN/_OPT/_MAX): three spin boxes in the control's range and
/// unit, written together when the edit ends (the validator refuses a triple out of order). Object names "min",
/// "opt", "max".
class RegionTripleEditor : public QWidget {
    Q_OBJECT
public:
    RegionTripleEditor(const BandwidthSchema& schema, QWidget* parent = nullptr);
    void setValues(unsigned min, unsigned opt, unsigned max);
    std::array<unsigned, 3> values() const;

private:
    std::array<QSpinBox*, 3> m_spins {};
};

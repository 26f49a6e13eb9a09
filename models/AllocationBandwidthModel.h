// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AllocationModel.h"

#include <QAbstractTableModel>
#include <QPointer>

#include <optional>
#include <vector>

/// Bandwidth throttles (MBA "MB"/"SMBA", or CBA levels) per CLOS and domain: the model behind MbaEditor.
/// Rows = control groups, columns = domains of the selected bandwidth schema. It shares the AllocationModel's
/// state, writer and undo stack, so heatmap and MBA edits undo in one history.
/// setData(EditRole, requested) snaps the value as the hardware/kernel will (BandwidthSchema::effectiveValue)
/// and writes it at once through an AllocationEditCommand; the read-back value is what is shown.
class AllocationBandwidthModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        ValueRole = Qt::UserRole + 1, ///< uint: value as the backend holds it
        RowErrorRole, ///< QString: the last rejection for this cell
        GroupRole,
        DomainRole,
    };
    Q_ENUM(Role)

    explicit AllocationBandwidthModel(QObject* parent = nullptr);

    void setSourceModel(AllocationModel* model);
    AllocationModel* sourceModel() const { return m_source; }

    QStringList schemaNames() const;
    QString schema() const { return m_schema; }
    void setSchema(const QString& name);
    /// The selected schema's rules (nullptr when the source has no bandwidth control). For a region triple: its
    /// MB_REGION<n>_MIN, whose range, steps and unit the three bounds share.
    const BandwidthSchema* bandwidthSchema() const;
    /// The selected entry is a region's min, opt and max ("MB_REGION0"), edited as one triple.
    bool isTriple() const { return !regionBounds().empty(); }
    /// The selected region's MIN, OPT and MAX schemas, in that order; empty when the entry is one control.
    std::vector<const BandwidthSchema*> regionBounds() const;
    /// CBQRI MB_MIN: per domain, how much of the budget the groups reserve and what still fits, as the engine
    /// counts it (rdt::reservationUse): "domain 72: 758 of 819 blocks reserved, 61 still fit". "" without a budget.
    QString budgetText() const;

    /// Snaps and writes one value; false when read-only, out of range of the table, or refused (see RowErrorRole).
    bool setValue(int row, int column, unsigned requested);
    /// Writes a region's min, opt and max of one cell as one change (the validator refuses a triple out of order,
    /// and then nothing is written); false when refused, read-only or the entry is no triple.
    bool setTriple(int row, int column, unsigned min, unsigned opt, unsigned max);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "70 %", "2048 MiBps", "level 3", "819 blocks", "weight 255", "256 /511"
    static QString formatValue(const BandwidthSchema& schema, unsigned value);
    /// The value a group holds in a domain of `schema`; nullopt when the group has none there (shown "unknown"
    /// except for a cap, where no value means no cap).
    std::optional<unsigned> heldValue(int row, int column, const BandwidthSchema& schema) const;

Q_SIGNALS:
    /// A write changed the requested value to what the hardware holds (requested 55, bandwidth_gran 10: 60).
    void valueRounded(const QString& group, int domain, unsigned requested, unsigned written);

private:
    void sourceChanged();
    const GroupAllocation* group(int row) const;
    int domain(int column) const;
    unsigned value(int row, int column) const;
    /// "min 1 · opt 256 · max 511 /511" for a triple's cell.
    QString tripleText(int row, int column) const;
    /// The refusal shown on a cell: the schema's, or the first of the triple's bounds.
    QString errorAt(int row, int column) const;
    /// The domains of the selected control (its own, else every domain of the source).
    std::vector<int> controlDomains() const;
    struct ShownValue {
        unsigned value = 0;
        QString text;
        QString error;
        bool operator==(const ShownValue&) const = default;
    };
    /// Every cell's value and rejection, row-major: what the view shows now.
    std::vector<ShownValue> currentValues() const;

    QPointer<AllocationModel> m_source;
    QString m_schema;
    // Shape of the table as last published, to tell a value update from a structural change.
    std::vector<std::string> m_groups;
    std::vector<int> m_domains;
    std::vector<ShownValue> m_shown; ///< as last published, so only changed cells are announced
};

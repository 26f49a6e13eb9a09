// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AllocationModel.h"

#include <QAbstractTableModel>
#include <QPointer>

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
    /// The selected schema's rules (nullptr when the source has no bandwidth control).
    const BandwidthSchema* bandwidthSchema() const;

    /// Snaps and writes one value; false when read-only, out of range of the table, or refused (see RowErrorRole).
    bool setValue(int row, int column, unsigned requested);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "70 %", "2048 MiBps", "level 3"
    static QString formatValue(const BandwidthSchema& schema, unsigned value);

Q_SIGNALS:
    /// A write changed the requested value to what the hardware holds (requested 55, bandwidth_gran 10: 60).
    void valueRounded(const QString& group, int domain, unsigned requested, unsigned written);

private:
    void sourceChanged();
    const GroupAllocation* group(int row) const;
    int domain(int column) const;
    unsigned value(int row, int column) const;
    struct ShownValue {
        unsigned value = 0;
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

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractItemModel>
#include <QList>
#include <QString>

/// One capability line as the Machine panel shows it (converted from the platform's CapabilityReport, or read
/// from a session's machine description, so the panel looks the same live and in replay).
struct CapabilityRow {
    QString group; ///< "CPU", "RDT monitoring", "RDT allocation", "PMU", "LBR", "Topology", ...
    QString name;
    QString value; ///< masks in hex ("0x7ff"), counts, sizes
    bool present = true;
    QString origin; ///< "CPUID.(EAX=10H,ECX=1):EAX[4:0]", "sysfs", ...
    QString sdmSection; ///< "20.19.4.2"
    QString whyNot; ///< why the capability is absent, and what would fix it
};

/// Machine panel: a two-level tree (group -> capability) over a flat list of CapabilityRow.
class MachineModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ValueColumn, OriginColumn, SdmColumn, ColumnCount };
    enum Role { PresentRole = Qt::UserRole + 1, SdmSectionRole, WhyNotRole, GroupRole, IsGroupRole };

    explicit MachineModel(QObject* parent = nullptr);

    void setRows(QList<CapabilityRow> rows);
    const QList<CapabilityRow>& rows() const { return m_rows; }
    /// The row behind an index, or nullptr for a group header.
    const CapabilityRow* rowAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Group {
        QString name;
        QList<int> rows; // indices into m_rows
    };
    static constexpr quintptr kGroupId = ~quintptr(0);
    QList<CapabilityRow> m_rows;
    QList<Group> m_groups;
};

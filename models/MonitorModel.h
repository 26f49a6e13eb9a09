// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/Sample.h"

#include <QAbstractTableModel>
#include <QList>

/// The latest reading of every group in every L3 domain (one row each), updated once per frame.
class MonitorModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        GroupColumn,
        DomainColumn,
        OccupancyColumn,
        TotalColumn,
        LocalColumn,
        RemoteColumn,
        FlagsColumn,
        ColumnCount
    };
    /// Raw numbers for sorting and plotting (DisplayRole is formatted text).
    enum Role { ValueRole = Qt::UserRole + 1, GroupPathRole, FlagsRole };

    explicit MonitorModel(QObject* parent = nullptr);

    /// Replaces the readings: rows whose (group, domain) set did not change get one dataChanged; otherwise reset.
    void update(const rdt::RdtSampleBatch& batch);
    void clear();

    /// "occupancy error, counter wrapped, ...": the flags a user must see, as text.
    static QString flagsText(std::uint32_t flags);
    /// A reading's text in one of the value columns, or "unknown" when its flags say it could not be read.
    static QString valueText(const rdt::RdtSample& s, int column);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<rdt::RdtSample> m_rows;
};

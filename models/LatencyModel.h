// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Load latency (PEBS, SDM 22.3.1.1.2; docs/PMU.md "PEBS load latency") for the GUI: a table of the top functions or the
// top 64-byte cache lines of a LoadLatencyReport (count, mean/p50/p99 cycles, HITM, remote, where the loads were
// served), plus helpers for the histogram (bins by data source).

#include "pmu/LoadLatency.h"

#include <QAbstractTableModel>
#include <QString>

class LatencyModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Kind { Functions, Lines };
    enum Column {
        KeyColumn,
        WhereColumn,
        CountColumn,
        MeanColumn,
        P50Column,
        P99Column,
        HitmColumn,
        RemoteColumn,
        SourceColumn,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole + 1 };

    explicit LatencyModel(Kind kind, QObject* parent = nullptr);

    void setReport(const rdt::pmu::LoadLatencyReport& report);
    Kind kind() const { return m_kind; }
    const std::vector<rdt::pmu::LatencyRow>& rows() const { return m_rows; }

    static constexpr int kBins = static_cast<int>(rdt::pmu::LoadLatencyReport::kBuckets);
    static constexpr int kLevels = static_cast<int>(rdt::pmu::MemLevel::Count);
    /// "1-2", "2-4", ... "64-128" cycles (bin 0 also holds 0).
    static QString binLabel(int bin);
    static QString levelName(int level);
    static std::uint64_t binCount(const rdt::pmu::LoadLatencyReport& r, int bin, int level);
    static std::uint64_t histogramTotal(const rdt::pmu::LoadLatencyReport& r);
    static std::uint64_t levelTotal(const rdt::pmu::LoadLatencyReport& r, int level);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Kind m_kind;
    std::vector<rdt::pmu::LatencyRow> m_rows;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "JobTracker.h"

#include <QAbstractTableModel>
#include <QList>
#include <QString>

/// One process as the picker lists it.
struct ProcessInfo {
    int pid = 0;
    QString user;
    QString name; ///< /proc/PID/comm
    QString command; ///< /proc/PID/cmdline with NULs as spaces
};

/// Process picker model over /proc (any root, so tests use a tree they create). The scan runs in the background
/// through a JobTracker: a refresh that finishes after a newer one started is dropped.
class ProcessModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { PidColumn, UserColumn, NameColumn, CommandColumn, ColumnCount };
    enum Role { PidRole = Qt::UserRole + 1 };

    explicit ProcessModel(QObject* parent = nullptr);

    void setProcRoot(const QString& root) { m_root = root; }
    /// Synchronous scan (what the background job runs); unreadable entries (raced exits, hidepid) are skipped.
    static QList<ProcessInfo> scan(const QString& procRoot);
    void refresh();
    void setProcesses(QList<ProcessInfo> processes);
    const QList<ProcessInfo>& processes() const { return m_processes; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void refreshed();

private:
    QString m_root = QStringLiteral("/proc");
    QList<ProcessInfo> m_processes;
    JobTracker m_jobs { this };
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class ProcessModel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QLabel;

/// Picks processes from /proc (filter by name, command or user) to add to a group.
class ProcessPickerDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProcessPickerDialog(const QString& procRoot = QStringLiteral("/proc"), QWidget* parent = nullptr);

    /// Matches name, command and PID; "user:NAME" matches the user column only.
    void setFilter(const QString& text);
    QList<int> selectedPids() const;
    ProcessModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

private:
    ProcessModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTableView* m_view;
    QLabel* m_count;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class MachineModel;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;
struct CapabilityRow;

/// Machine panel: every enumerated capability with its CPUID/MSR origin and SDM section, grouped, filterable.
class MachinePanel : public QWidget {
    Q_OBJECT
public:
    explicit MachinePanel(MachineModel* model, QWidget* parent = nullptr);

    /// One line above the tree: where CPUID came from and, when RDT is unusable, why.
    void setSummary(const QString& text);
    QTreeView* view() const { return m_view; }

Q_SIGNALS:
    void capabilitySelected(const CapabilityRow& row);

private:
    MachineModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_filter;
    QLabel* m_summary;
};

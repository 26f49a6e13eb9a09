// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLineEdit;
class QListWidget;
class QListWidgetItem;

/// The timeline's legend and group picker, beside the plots: one checkable row per group with its line colour and
/// its whole name (never elided; the list scrolls sideways when the panel is narrow), a filter box, and All / None /
/// Top N buttons. A server has 100+ monitor groups: the timeline plots the first few and this list picks the rest.
class TimelineGroupList : public QWidget {
    Q_OBJECT
public:
    explicit TimelineGroupList(QWidget* parent = nullptr);

    /// Adds the group's row (once; later calls only update the colour).
    void addGroup(const QString& group, const QString& label, const QColor& color, bool checked);
    void setChecked(const QString& group, bool checked);
    bool isChecked(const QString& group) const;
    void clear();

    int rowCount() const;
    /// The text a row shows (the group's whole label) and whether it fits the list without eliding.
    QString rowText(int row) const;
    bool rowTextFits(int row) const;
    QListWidget* list() const { return m_list; }

Q_SIGNALS:
    void checkedChanged(const QString& group, bool checked);
    /// The "Top N" button: the view picks the N groups with the most bandwidth.
    void topRequested(int count);

private:
    QListWidgetItem* itemFor(const QString& group) const;
    void applyFilter(const QString& text);

    QLineEdit* m_filter = nullptr;
    QListWidget* m_list = nullptr;
};

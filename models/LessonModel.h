// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lesson/LessonRun.h"

#include <QAbstractListModel>

/// The steps of the lesson a student follows (views/LessonPanel.h), one row each: its title, and whether it is
/// done, skipped, the current one (and in which phase) or still ahead. It reads a LessonRun it does not own;
/// refresh() after the run moved on.
class LessonModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { StateRole = Qt::UserRole + 1, PhaseRole };
    explicit LessonModel(QObject* parent = nullptr);

    /// Follows `run` (null: no lesson); resets the model.
    void setRun(const rdt::lesson::LessonRun* run);
    /// The run moved on (a phase, a step, a reset): every row's state is re-read.
    void refresh();

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "done", "skipped", "current", "ahead".
    QString stateOf(int row) const;

private:
    const rdt::lesson::LessonRun* m_run = nullptr;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonModel.h"

#include <QFont>

LessonModel::LessonModel(QObject* parent)
    : QAbstractListModel(parent)
{ }

void LessonModel::setRun(const rdt::lesson::LessonRun* run)
{
    beginResetModel();
    m_run = run;
    endResetModel();
}

void LessonModel::refresh()
{
    if (rowCount() > 0) Q_EMIT dataChanged(index(0), index(rowCount() - 1));
}

int LessonModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_run) return 0;
    return static_cast<int>(m_run->lesson().steps.size());
}

QString LessonModel::stateOf(int row) const
{
    if (!m_run || row < 0 || row >= rowCount()) return {};
    const auto i = static_cast<std::size_t>(row);
    if (m_run->stepSkipped(i)) return QStringLiteral("skipped");
    if (m_run->finished() || i < m_run->stepIndex()) return QStringLiteral("done");
    if (i == m_run->stepIndex()) return QStringLiteral("current");
    return QStringLiteral("ahead");
}

QVariant LessonModel::data(const QModelIndex& index, int role) const
{
    if (!m_run || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const auto& step = m_run->lesson().steps[static_cast<std::size_t>(index.row())];
    const QString state = stateOf(index.row());
    switch (role) {
    case Qt::DisplayRole: {
        const QString mark = state == QLatin1String("done") ? QStringLiteral("\u2713 ")
            : state == QLatin1String("skipped")             ? QStringLiteral("\u2192 ")
            : state == QLatin1String("current")             ? QStringLiteral("\u25b6 ")
                                                            : QStringLiteral("   ");
        return QString(
            mark + QString::number(index.row() + 1) + QStringLiteral(". ") + QString::fromStdString(step.title));
    }
    case Qt::ToolTipRole:
    case Qt::AccessibleDescriptionRole:
        return QString(QString::fromStdString(step.title) + QStringLiteral(": ") + state);
    case StateRole:
        return state;
    case PhaseRole:
        return state == QLatin1String("current") ? QString::fromLatin1(rdt::lesson::phaseName(m_run->phase()))
                                                 : QString();
    case Qt::FontRole:
        if (state == QLatin1String("current")) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default:
        return {};
    }
}

QVariant LessonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section == 0 && orientation == Qt::Horizontal && role == Qt::DisplayRole) return tr("Step");
    return {};
}

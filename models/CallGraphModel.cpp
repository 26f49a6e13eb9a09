// SPDX-License-Identifier: GPL-3.0-or-later
#include "CallGraphModel.h"

#include <QHash>

using rdt::pmu::FunctionEdge;

CallGraphModel::CallGraphModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void CallGraphModel::setReport(rdt::pmu::BranchGraphReport report)
{
    beginResetModel();
    m_report = std::move(report);
    rebuildRows();
    endResetModel();
}

void CallGraphModel::setHasBranchFlags(bool has)
{
    if (has == m_flags) return;
    m_flags = has;
    if (!m_rows.empty()) Q_EMIT dataChanged(index(0, MispredictColumn), index(rowCount() - 1, MispredictColumn));
}

void CallGraphModel::setMode(Mode mode, const QString& function)
{
    beginResetModel();
    m_mode = mode;
    m_function = function;
    rebuildRows();
    endResetModel();
}

void CallGraphModel::rebuildRows()
{
    m_rows.clear();
    const std::string fn = m_function.toStdString();
    for (std::size_t i = 0; i < m_report.edges.size(); ++i) {
        const FunctionEdge& e = m_report.edges[i];
        const bool keep = m_mode == Mode::Edges
            || (e.call() && e.from != e.to
                && ((m_mode == Mode::Callers && e.to == fn) || (m_mode == Mode::Callees && e.from == fn)));
        if (keep) m_rows.push_back(static_cast<int>(i));
    }
}

int CallGraphModel::findFunction(const QString& name) const
{
    const std::string n = name.toStdString();
    for (std::size_t i = 0; i < m_report.functions.size(); ++i)
        if (m_report.functions[i].name == n) return static_cast<int>(i);
    return -1;
}

QSet<QString> CallGraphModel::neighbourhood(const QString& name, int hops) const
{
    QHash<QString, QSet<QString>> adjacent;
    for (const auto& e : m_report.edges) {
        if (!e.call() || e.from == e.to) continue;
        const QString a = QString::fromStdString(e.from), b = QString::fromStdString(e.to);
        adjacent[a].insert(b);
        adjacent[b].insert(a);
    }
    QSet<QString> seen { name };
    QSet<QString> frontier { name };
    for (int h = 0; h < hops && !frontier.isEmpty(); ++h) {
        QSet<QString> next;
        for (const QString& f : std::as_const(frontier))
            for (const QString& n : adjacent.value(f))
                if (!seen.contains(n)) {
                    seen.insert(n);
                    next.insert(n);
                }
        frontier = next;
    }
    return seen;
}

const FunctionEdge* CallGraphModel::edgeAt(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size())) return nullptr;
    return &m_report.edges[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(row)])];
}

int CallGraphModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CallGraphModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CallGraphModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const FunctionEdge* e = edgeAt(index.row());
    if (!e) return {};
    const auto& s = e->stats;
    if (role == EdgeIndexRole) return m_rows[static_cast<std::size_t>(index.row())];
    if (role == SortRole || role == Qt::DisplayRole) {
        const bool display = role == Qt::DisplayRole;
        switch (index.column()) {
        case FromColumn:
            return QString::fromStdString(e->from);
        case ToColumn:
            return e->from != e->to ? QString::fromStdString(e->to) : (display ? tr("(inside)") : QVariant(QString()));
        case CountColumn:
            return display ? QVariant(QString::number(s.count)) : QVariant(static_cast<qulonglong>(s.count));
        case MispredictColumn:
            if (!m_flags) return display ? QVariant(tr("n/a")) : QVariant(-1.0);
            return display ? QVariant(QStringLiteral("%1 %").arg(s.mispredictRate() * 100.0, 0, 'f', 1))
                           : QVariant(s.mispredictRate());
        case AvgCyclesColumn:
            if (!s.cycleSamples) return display ? QVariant(tr("n/a")) : QVariant(0.0);
            return display ? QVariant(QString::number(s.averageCycles(), 'f', 1)) : QVariant(s.averageCycles());
        case TotalCyclesColumn: // unknown, not zero, when no entry carried a cycle count
            if (!s.cycleSamples) return display ? QVariant(tr("n/a")) : QVariant(static_cast<qulonglong>(0));
            return display ? QVariant(QString::number(s.cycles)) : QVariant(static_cast<qulonglong>(s.cycles));
        case KindColumn:
            return QString::fromUtf8(rdt::pmu::edgeKindName(e->kind));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= CountColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == KindColumn)
        return tr("Kind from: %1").arg(QString::fromUtf8(rdt::pmu::edgeKindFromName(e->kindFrom)));
    if (role == Qt::ToolTipRole && index.column() >= MispredictColumn && index.column() != KindColumn
        && (!s.cycleSamples || !m_flags))
        return tr("The LBR entries carry no cycle counts (call-stack mode, or a PMU without LBR timing)");
    return {};
}

QVariant CallGraphModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case FromColumn:
        return m_mode == Mode::Callers ? tr("Caller") : tr("From");
    case ToColumn:
        return m_mode == Mode::Callees ? tr("Callee") : tr("To");
    case CountColumn:
        return tr("Count");
    case MispredictColumn:
        return tr("Mispredicted");
    case AvgCyclesColumn:
        return tr("Avg cycles");
    case TotalCyclesColumn:
        return tr("Total cycles");
    case KindColumn:
        return tr("Kind");
    default:
        return {};
    }
}

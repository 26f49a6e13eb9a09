// SPDX-License-Identifier: GPL-3.0-or-later
#include "CallTreeModel.h"

#include <QLocale>

using rdt::pmu::CallTreeNode;

CallTreeModel::CallTreeModel(Kind kind, QObject* parent)
    : QAbstractItemModel(parent)
    , m_kind(kind)
{
    m_nodes.emplace_back();
}

void CallTreeModel::setReport(const rdt::pmu::CallTreeReport& report)
{
    beginResetModel();
    m_nodes = m_kind == Kind::TopDown ? report.topDown : report.bottomUp;
    if (m_nodes.empty()) m_nodes.emplace_back();
    endResetModel();
}

quint64 CallTreeModel::totalSamples() const
{
    return m_nodes.front().inclusive;
}

std::int32_t CallTreeModel::nodeIndex(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<std::int32_t>(index.internalId()) : 0;
}

const CallTreeNode& CallTreeModel::node(const QModelIndex& index) const
{
    return m_nodes[static_cast<std::size_t>(nodeIndex(index))];
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || (parent.isValid() && parent.column() != 0)) return {};
    const auto& kids = node(parent).children;
    if (row < 0 || static_cast<std::size_t>(row) >= kids.size()) return {};
    return createIndex(row, column, static_cast<quintptr>(kids[static_cast<std::size_t>(row)]));
}

QModelIndex CallTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid()) return {};
    const std::int32_t p = node(child).parent;
    if (p <= 0) return {};
    const auto& siblings = m_nodes[static_cast<std::size_t>(m_nodes[static_cast<std::size_t>(p)].parent)].children;
    for (std::size_t row = 0; row < siblings.size(); ++row)
        if (siblings[row] == p) return createIndex(static_cast<int>(row), 0, static_cast<quintptr>(p));
    return {};
}

int CallTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0) return 0;
    return static_cast<int>(node(parent).children.size());
}

int CallTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QStringList CallTreeModel::pathOf(const QModelIndex& index) const
{
    QStringList path;
    for (std::int32_t i = nodeIndex(index); i > 0; i = m_nodes[static_cast<std::size_t>(i)].parent)
        path.prepend(QString::fromStdString(m_nodes[static_cast<std::size_t>(i)].function));
    return path;
}

QModelIndex CallTreeModel::indexOfPath(const QStringList& path) const
{
    QModelIndex at;
    for (const auto& name : path) {
        const std::string n = name.toStdString();
        const auto& kids = node(at).children;
        QModelIndex found;
        for (std::size_t row = 0; row < kids.size(); ++row)
            if (m_nodes[static_cast<std::size_t>(kids[row])].function == n) {
                found = index(static_cast<int>(row), 0, at);
                break;
            }
        if (!found.isValid()) return {};
        at = found;
    }
    return at;
}

QVariant CallTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const CallTreeNode& n = node(index);
    const bool selfApplies = m_kind == Kind::TopDown || n.parent == 0;
    const double total = static_cast<double>(totalSamples());
    const double share = total > 0 ? 100.0 * static_cast<double>(n.inclusive) / total : 0.0;
    if (role == NodeRole) return nodeIndex(index);
    if (role == SortRole) {
        switch (index.column()) {
        case FunctionColumn:
            return QString::fromStdString(n.function);
        case SelfColumn:
            return selfApplies ? static_cast<qulonglong>(n.self) : qulonglong { 0 };
        case InclusiveColumn:
        case ShareColumn:
            return static_cast<qulonglong>(n.inclusive);
        case ModuleColumn:
            return QString::fromStdString(n.module);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != FunctionColumn && index.column() != ModuleColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        return tr("%1\n%2\n%3 of %4 samples (%5 %)")
            .arg(QString::fromStdString(n.function),
                n.module.empty() ? tr("module unknown") : QString::fromStdString(n.module),
                QLocale().toString(static_cast<qulonglong>(n.inclusive)),
                QLocale().toString(static_cast<qulonglong>(totalSamples())), QString::number(share, 'f', 1));
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case FunctionColumn:
        return QString::fromStdString(n.function);
    case SelfColumn:
        return selfApplies ? QLocale().toString(static_cast<qulonglong>(n.self)) : QString();
    case InclusiveColumn:
        return QLocale().toString(static_cast<qulonglong>(n.inclusive));
    case ShareColumn:
        return QString(QString::number(share, 'f', 1) + QStringLiteral(" %"));
    case ModuleColumn:
        return QString::fromStdString(n.module);
    default:
        return {};
    }
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case SelfColumn:
            return m_kind == Kind::TopDown ? tr("Samples taken in this function at this place in the tree")
                                           : tr("Samples taken in this function (first level only)");
        case InclusiveColumn:
            return m_kind == Kind::TopDown ? tr("Samples whose stack passes through this call path")
                                           : tr("Samples taken in the first-level function through this chain of "
                                                "callers");
        case ShareColumn:
            return tr("Inclusive samples as a share of every sample in the tree");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case FunctionColumn:
        return m_kind == Kind::TopDown ? tr("Function (callers first)") : tr("Function (then its callers)");
    case SelfColumn:
        return tr("Self");
    case InclusiveColumn:
        return m_kind == Kind::TopDown ? tr("Inclusive") : tr("Samples");
    case ShareColumn:
        return tr("Share");
    case ModuleColumn:
        return tr("Module");
    default:
        return {};
    }
}

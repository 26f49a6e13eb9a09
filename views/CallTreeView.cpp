// SPDX-License-Identifier: GPL-3.0-or-later
#include "CallTreeView.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <functional>

CallTreeView::CallTreeView(CallTreeModel::Kind kind, QWidget* parent)
    : QWidget(parent)
    , m_model(new CallTreeModel(kind, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_tree(new QTreeView(this))
    , m_search(new QLineEdit(this))
{
    setObjectName(
        kind == CallTreeModel::Kind::TopDown ? QStringLiteral("topDownTree") : QStringLiteral("bottomUpTree"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CallTreeModel::SortRole);
    m_proxy->setFilterKeyColumn(CallTreeModel::FunctionColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_tree->setModel(m_proxy);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(CallTreeModel::InclusiveColumn, Qt::DescendingOrder);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(CallTreeModel::FunctionColumn, QHeaderView::Stretch);
    for (int c = CallTreeModel::SelfColumn; c < CallTreeModel::ColumnCount; ++c)
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_search->setPlaceholderText(tr("Search functions\u2026"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, this, &CallTreeView::setSearchText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_search);
    layout->addWidget(m_tree, 1);
}

void CallTreeView::setSearchText(const QString& text)
{
    if (m_search->text() != text) m_search->setText(text); // comes back here through textChanged
    m_proxy->setFilterFixedString(text);
    if (!text.isEmpty()) m_tree->expandAll();
}

void CallTreeView::rememberExpanded()
{
    m_expanded.clear();
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
        for (int r = 0; r < m_proxy->rowCount(parent); ++r) {
            const QModelIndex i = m_proxy->index(r, 0, parent);
            if (!m_tree->isExpanded(i)) continue;
            m_expanded.insert(m_model->pathOf(m_proxy->mapToSource(i)));
            walk(i);
        }
    };
    walk({});
}

void CallTreeView::restoreExpanded()
{
    for (const auto& path : std::as_const(m_expanded)) {
        const QModelIndex source = m_model->indexOfPath(path);
        if (source.isValid()) m_tree->expand(m_proxy->mapFromSource(source));
    }
}

void CallTreeView::expandHottestPath()
{
    // Open the hottest chain a few levels down, so the first look shows where the samples go.
    QModelIndex at;
    for (int depth = 0; depth < 8 && m_proxy->rowCount(at) > 0; ++depth) {
        at = m_proxy->index(0, 0, at);
        m_tree->expand(at);
    }
}

void CallTreeView::setReport(const rdt::pmu::CallTreeReport& report)
{
    rememberExpanded();
    m_model->setReport(report);
    if (!m_seenData && m_model->totalSamples() > 0) {
        m_seenData = true;
        expandHottestPath();
        return;
    }
    restoreExpanded();
    if (!m_search->text().isEmpty()) m_tree->expandAll();
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroupsPanel.h"
#include "ColourScheme.h"
#include "DistinctElision.h"
#include "DistinctNameDelegate.h"

#include "ProcessPickerDialog.h"
#include "models/GroupControl.h"
#include "models/GroupModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QStyle>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <functional>

namespace {
QString errorString(const rdt::Error& e)
{
    return QString::fromStdString(e.toString());
}
}

GroupsPanel::GroupsPanel(GroupModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(new QTreeView(this))
    , m_banner(new QLabel(this))
    , m_error(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    auto button = [this, bar](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        b->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed); // a narrow dock never cuts a label ("+ Monito")
        bar->addWidget(b);
        return b;
    };
    // Short labels keep the dock narrow; the tooltips say what each one does.
    m_newControl = button(tr("+ Group"), tr("Create a control group (its own CLOS and RMID)"));
    m_newMonitor = button(tr("+ Monitor"), tr("Create a monitor group (an RMID) under the selected control group"));
    m_delete = button(tr("Delete"), tr("Remove the selected group; its tasks return to the parent"));
    m_addTasks = button(tr("PIDs\u2026"), tr("Pick processes from /proc and move them into the selected group"));
    m_cpus = button(tr("CPUs\u2026"), tr("Set the CPUs of the selected group"));
    bar->addStretch(1);
    layout->addLayout(bar);
    m_banner->setWordWrap(true);
    m_banner->hide();
    layout->addWidget(m_banner);
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    // Kind, tasks and CPUs keep their width; the names take the rest and are elided in the middle (a monitor
    // group's path differs at both ends; its tooltip says it whole). With every column sized to its contents the
    // fixture tree's long names pushed Tasks and CPUs out of a 300 px dock.
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(GroupModel::NameColumn, QHeaderView::Stretch);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_names = new DistinctNameDelegate(this); // ...and two groups never elide to the same text
    m_view->setItemDelegateForColumn(GroupModel::NameColumn, m_names);
    connect(m_view->header(), &QHeaderView::sectionResized, this, [this](int column) {
        if (column == GroupModel::NameColumn) shortenNames();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &GroupsPanel::shortenNames);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &GroupsPanel::shortenNames);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &GroupsPanel::shortenNames);
    layout->addWidget(m_view, 1);
    m_error->setWordWrap(true);
    colourscheme::useErrorText(m_error);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    layout->addWidget(m_error);

    connect(m_model, &QAbstractItemModel::modelReset, m_view, &QTreeView::expandAll);
    connect(m_model, &QAbstractItemModel::rowsInserted, m_view, &QTreeView::expandAll);
    connect(m_newControl, &QToolButton::clicked, this, [this] {
        bool ok = false;
        const QString name
            = QInputDialog::getText(this, tr("New control group"), tr("Name:"), QLineEdit::Normal, {}, &ok);
        if (ok && !name.isEmpty()) createGroup(name, false);
    });
    connect(m_newMonitor, &QToolButton::clicked, this, [this] {
        bool ok = false;
        const QString name
            = QInputDialog::getText(this, tr("New monitor group"), tr("Name:"), QLineEdit::Normal, {}, &ok);
        if (ok && !name.isEmpty()) createGroup(name, true);
    });
    connect(m_delete, &QToolButton::clicked, this, &GroupsPanel::removeSelected);
    connect(m_addTasks, &QToolButton::clicked, this, [this] {
        ProcessPickerDialog picker(m_procRoot, this);
        if (picker.exec() == QDialog::Accepted) addTasks(picker.selectedPids());
    });
    connect(m_cpus, &QToolButton::clicked, this, [this] {
        bool ok = false;
        const QString list
            = QInputDialog::getText(this, tr("CPUs"), tr("CPU list (e.g. 0-3,8):"), QLineEdit::Normal, {}, &ok);
        if (ok) setCpus(list);
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &GroupsPanel::updateButtons);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTreeView::customContextMenuRequested, this, &GroupsPanel::showContextMenu);
    setControl(nullptr);
}

void GroupsPanel::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid()) return;
    m_view->setCurrentIndex(index);
    QMenu menu(this);
    addCounterActions(&menu);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void GroupsPanel::addCounterActions(QMenu* menu)
{
    const bool writable = m_control && m_readOnly.isEmpty();
    // Assignable MBM counters (AMD ABMC): the Monitor dock greys a group's Unassigned rows; these fix them, in every
    // domain or in one (the pool is small: counters go where the group's tasks run).
    QList<QAction*> actions;
    QAction* assign = menu->addAction(tr("Assign MBM counters (every domain)"));
    connect(assign, &QAction::triggered, this, [this] { assignCounters(true); });
    QAction* free = menu->addAction(tr("Free MBM counters (every domain)"));
    connect(free, &QAction::triggered, this, [this] { assignCounters(false); });
    actions << assign << free;
    const std::vector<int> domains = m_control ? m_control->counterDomains() : std::vector<int> {};
    if (!domains.empty()) {
        QMenu* assignIn = menu->addMenu(tr("Assign MBM counters in domain"));
        QMenu* freeIn = menu->addMenu(tr("Free MBM counters in domain"));
        for (int d : domains) {
            const QString label = tr("L3 domain %1").arg(d);
            QAction* a = assignIn->addAction(label);
            connect(a, &QAction::triggered, this, [this, d] { assignCounters(true, d); });
            QAction* f = freeIn->addAction(label);
            connect(f, &QAction::triggered, this, [this, d] { assignCounters(false, d); });
            actions << a << f;
        }
    }
    for (QAction* a : actions) {
        a->setEnabled(writable);
        if (!writable) a->setToolTip(m_readOnly);
    }
}

bool GroupsPanel::assignCounters(bool assign, int domain)
{
    const QString what = assign ? tr("Assign MBM counters") : tr("Free MBM counters");
    if (!m_control || !m_readOnly.isEmpty()) return report(what, false, m_readOnly);
    const QString path = selectedPath();
    const auto status = m_control->assignCounters(path.toStdString(), domain, assign);
    const QString where = domain < 0 ? QString() : tr(" in L3 domain %1").arg(domain);
    return report(what + tr(" of %1").arg(path.isEmpty() ? tr("the default group") : path) + where, status.ok(),
        status ? QString() : errorString(status.error()));
}

void GroupsPanel::setControl(GroupControl* control, const QString& readOnlyReason)
{
    m_control = control;
    m_readOnly = readOnlyReason;
    if (m_readOnly.isEmpty() && !control) m_readOnly = tr("No RDT backend is connected.");
    if (m_readOnly.isEmpty() && control) m_readOnly = QString::fromStdString(control->whyReadOnly());
    m_banner->setText(m_readOnly.isEmpty() ? QString() : tr("Read-only: %1").arg(m_readOnly));
    m_banner->setVisible(!m_readOnly.isEmpty());
    updateButtons();
    reload();
}

void GroupsPanel::reload()
{
    if (!m_control) return;
    auto groups = m_control->listGroups();
    if (!groups) {
        report(tr("List groups"), false, errorString(groups.error()));
        return;
    }
    m_model->setGroups(groups.value());
}

void GroupsPanel::updateButtons()
{
    const bool writable = m_control && m_readOnly.isEmpty();
    const bool selected = m_view->currentIndex().isValid();
    for (auto* b : { m_newControl, m_newMonitor, m_delete, m_addTasks, m_cpus })
        b->setEnabled(writable);
    m_newMonitor->setEnabled(writable && selected && !selectedIsMonitor());
    m_delete->setEnabled(writable && selected && !selectedPath().isEmpty()); // the default group stays
    m_addTasks->setEnabled(writable && selected);
    m_cpus->setEnabled(writable && selected);
    if (!writable) {
        for (auto* b : { m_newControl, m_newMonitor, m_delete, m_addTasks, m_cpus })
            b->setToolTip(m_readOnly);
    }
}

QString GroupsPanel::selectedPath() const
{
    return m_view->currentIndex().siblingAtColumn(0).data(GroupModel::PathRole).toString();
}

bool GroupsPanel::selectedIsMonitor() const
{
    return m_view->currentIndex().siblingAtColumn(0).data(GroupModel::MonitorOnlyRole).toBool();
}

bool GroupsPanel::report(const QString& what, bool ok, const QString& reason)
{
    m_error->setText(ok ? QString() : what + QStringLiteral(": ") + reason);
    m_error->setVisible(!ok);
    if (ok) {
        reload();
        Q_EMIT groupsChanged();
    }
    return ok;
}

bool GroupsPanel::createGroup(const QString& name, bool monitorOnly)
{
    if (!m_control || !m_readOnly.isEmpty()) return report(tr("Create group"), false, m_readOnly);
    if (name.contains(QLatin1Char('/')) || name.trimmed().isEmpty())
        return report(tr("Create group"), false, tr("a group name must be one non-empty path component"));
    std::string path = name.toStdString();
    if (monitorOnly) {
        const QString parent = selectedPath();
        path = parent.isEmpty() ? "mon_groups/" + path : parent.toStdString() + "/mon_groups/" + path;
    }
    const auto status = m_control->createGroup(path, monitorOnly);
    return report(tr("Create %1").arg(QString::fromStdString(path)), status.ok(),
        status ? QString() : errorString(status.error()));
}

bool GroupsPanel::removeSelected()
{
    const QString path = selectedPath();
    if (!m_control || !m_readOnly.isEmpty() || path.isEmpty())
        return report(
            tr("Delete group"), false, path.isEmpty() ? tr("the default group cannot be removed") : m_readOnly);
    const auto status = m_control->removeGroup(path.toStdString());
    return report(tr("Delete %1").arg(path), status.ok(), status ? QString() : errorString(status.error()));
}

bool GroupsPanel::addTasks(const QList<int>& pids)
{
    if (!m_control || !m_readOnly.isEmpty()) return report(tr("Add tasks"), false, m_readOnly);
    if (pids.isEmpty()) return report(tr("Add tasks"), false, tr("no process selected"));
    const auto status = m_control->addTasks(selectedPath().toStdString(), std::vector<int>(pids.cbegin(), pids.cend()));
    return report(
        tr("Add tasks to %1").arg(selectedPath()), status.ok(), status ? QString() : errorString(status.error()));
}

bool GroupsPanel::setCpus(const QString& cpuList)
{
    if (!m_control || !m_readOnly.isEmpty()) return report(tr("Set CPUs"), false, m_readOnly);
    const auto status = m_control->setCpus(selectedPath().toStdString(), cpuList.trimmed().toStdString());
    return report(
        tr("Set CPUs of %1").arg(selectedPath()), status.ok(), status ? QString() : errorString(status.error()));
}

QString GroupsPanel::errorText() const
{
    return m_error->text();
}
QString GroupsPanel::readOnlyText() const
{
    return m_banner->text();
}

void GroupsPanel::shortenNames()
{
    QStringList all;
    const std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
        for (int r = 0; r < m_model->rowCount(parent); ++r) {
            all << m_model->index(r, GroupModel::NameColumn, parent).data().toString();
            walk(m_model->index(r, 0, parent));
        }
    };
    walk({});
    // Monitor groups sit one level in: the narrowest room any name has.
    const int margins = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1);
    m_names->setShownNames(distinctElisions(
        all, m_view->fontMetrics(), m_view->columnWidth(GroupModel::NameColumn) - 2 * m_view->indentation() - margins));
    m_view->viewport()->update();
}

void GroupsPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    shortenNames(); // the name column stretches with the dock
}

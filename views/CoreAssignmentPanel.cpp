// SPDX-License-Identifier: GPL-3.0-or-later
#include "CoreAssignmentPanel.h"

#include "models/CoreAssignmentSource.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace {
QTableView* table(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded); // many domains scroll, never widen the dock
    return view;
}
} // namespace

CoreAssignmentPanel::CoreAssignmentPanel(CoreAssignmentSource* source, QWidget* parent)
    : QWidget(parent)
    , m_source(source)
    , m_note(new QLabel(this))
    , m_cores(table(source->cores(), this))
    , m_classes(table(source->classes(), this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("coreAssignmentPanel"));
    m_cores->setObjectName(QStringLiteral("coresTable"));
    m_classes->setObjectName(QStringLiteral("classesTable"));
    m_note->setWordWrap(true);
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_cores);
    split->addWidget(m_classes);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_note);
    layout->addWidget(split, 1);
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, m_source, &CoreAssignmentSource::refresh);
    connect(m_source, &CoreAssignmentSource::refreshed, this, &CoreAssignmentPanel::showState);
    showState();
}

void CoreAssignmentPanel::showState()
{
    const QString why = m_source->unavailable();
    m_cores->setVisible(why.isEmpty());
    m_classes->setVisible(why.isEmpty());
    if (!why.isEmpty()) {
        m_note->setText(why);
        return;
    }
    const auto& t = m_source->cores()->assignments();
    QString text = tr("Cores \u2192 class of service and RMID; classes \u2192 allocation (as pqos -s). A CPU's class "
                      "applies to the default group's tasks while they run on it.");
    if (!t.closidsKnown || !t.rmidsKnown)
        text += tr(" Unknown CLOS/RMID numbers: resctrl shows them only with -o debug.");
    m_note->setText(text);
}

void CoreAssignmentPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_source->refresh();
    m_timer->start();
}

void CoreAssignmentPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_timer->stop();
}

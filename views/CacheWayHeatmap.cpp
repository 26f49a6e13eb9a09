// SPDX-License-Identifier: GPL-3.0-or-later
#include "CacheWayHeatmap.h"

#include "HeatmapGrid.h"
#include "models/AllocationModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

CacheWayHeatmap::CacheWayHeatmap(QWidget* parent)
    : QWidget(parent)
    , m_grid(new HeatmapGrid(this))
    , m_cacheBox(new QComboBox(this))
    , m_domainBox(new QComboBox(this))
    , m_live(new QCheckBox(tr("Apply live"), this))
    , m_apply(new QPushButton(tr("Apply"), this))
    , m_revert(new QPushButton(tr("Revert"), this))
    , m_undo(new QToolButton(this))
    , m_redo(new QToolButton(this))
    , m_banner(new QLabel(this))
    , m_status(new QLabel(this))
    , m_simulated(new QLabel(tr("simulated"), this))
{
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Cache:"), this));
    bar->addWidget(m_cacheBox);
    bar->addWidget(new QLabel(tr("Domain:"), this));
    bar->addWidget(m_domainBox);
    bar->addSpacing(12);
    bar->addWidget(m_live);
    bar->addWidget(m_apply);
    bar->addWidget(m_revert);
    m_undo->setText(tr("Undo"));
    m_redo->setText(tr("Redo"));
    m_undo->setToolTip(tr("Undo the last allocation edit (writes the old mask back)"));
    m_redo->setToolTip(tr("Redo the allocation edit"));
    bar->addWidget(m_undo);
    bar->addWidget(m_redo);
    bar->addStretch(1);
    m_simulated->setToolTip(tr("These allocations are on the simulated machine, not on this CPU"));
    m_simulated->setStyleSheet(QStringLiteral("QLabel { color: palette(highlighted-text); background: palette(highlight);"
                                              " border-radius: 3px; padding: 1px 6px; }"));
    bar->addWidget(m_simulated);

    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 4px; }"));
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("QLabel { color: #d93535; }"));
    m_live->setChecked(true);
    m_live->setToolTip(tr("Write every edit as soon as the drag ends; off: stage edits and press Apply"));

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_banner);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_status);

    connect(m_cacheBox, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (m_model && !name.isEmpty())
            m_model->setCache(name);
    });
    connect(m_domainBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_model && i >= 0)
            m_model->setDomain(m_domainBox->itemData(i).toInt());
    });
    connect(m_live, &QCheckBox::toggled, this, [this](bool on) {
        if (m_model)
            m_model->setApplyLive(on);
        syncControls();
    });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (m_model)
            m_model->apply();
    });
    connect(m_revert, &QPushButton::clicked, this, [this] {
        if (m_model)
            m_model->revert();
    });
    connect(m_undo, &QToolButton::clicked, this, [this] {
        if (m_model && m_model->undoStack())
            m_model->undoStack()->undo();
    });
    connect(m_redo, &QToolButton::clicked, this, [this] {
        if (m_model && m_model->undoStack())
            m_model->undoStack()->redo();
    });
    syncControls();
}

void CacheWayHeatmap::setModel(AllocationModel* model)
{
    for (const auto& c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_model = model;
    m_grid->setModel(model);
    if (model) {
        model->setApplyLive(m_live->isChecked());
        m_connections << connect(model, &AllocationModel::editableChanged, this, &CacheWayHeatmap::syncControls)
                      << connect(model, &AllocationModel::pendingChanged, this, &CacheWayHeatmap::syncControls)
                      << connect(model, &QAbstractItemModel::modelReset, this, &CacheWayHeatmap::syncSelectors)
                      << connect(model, &AllocationModel::stateChanged, this, &CacheWayHeatmap::syncSelectors)
                      << connect(model, &AllocationModel::editRejected, this,
                                 [this](int, const QString& message) {
                                     m_status->setText(tr("The backend refused the edit: %1").arg(message));
                                 })
                      << connect(model, &AllocationModel::allocationWritten, this,
                                 [this](const rdt::AllocationChanged& c) {
                                     if (c.ok)
                                         m_status->clear();
                                 });
        if (QUndoStack* stack = model->undoStack()) {
            m_connections << connect(stack, &QUndoStack::indexChanged, this, &CacheWayHeatmap::syncControls);
        }
    }
    syncSelectors();
    syncControls();
}

void CacheWayHeatmap::syncSelectors()
{
    const QSignalBlocker b1(m_cacheBox);
    const QSignalBlocker b2(m_domainBox);
    const QStringList caches = m_model ? m_model->cacheNames() : QStringList();
    if (caches != [this] {
            QStringList l;
            for (int i = 0; i < m_cacheBox->count(); ++i)
                l << m_cacheBox->itemText(i);
            return l;
        }()) {
        m_cacheBox->clear();
        m_cacheBox->addItems(caches);
    }
    if (m_model)
        m_cacheBox->setCurrentText(m_model->cache());
    m_cacheBox->setVisible(caches.size() > 1);
    const QList<int> domains = m_model ? m_model->domains() : QList<int>();
    if (m_domainBox->count() != domains.size()) {
        m_domainBox->clear();
        for (int d : domains)
            m_domainBox->addItem(QString::number(d), d);
    }
    if (m_model)
        m_domainBox->setCurrentIndex(m_domainBox->findData(m_model->domain()));
    m_simulated->setVisible(m_model && m_model->state().simulated);
    syncControls();
}

void CacheWayHeatmap::syncControls()
{
    const bool editable = m_model && m_model->isEditable();
    const bool pending = m_model && m_model->hasPendingEdits();
    m_banner->setVisible(!editable);
    m_banner->setText(readOnlyText());
    m_live->setEnabled(editable);
    m_apply->setVisible(!m_live->isChecked());
    m_revert->setVisible(!m_live->isChecked());
    m_apply->setEnabled(editable && pending && m_model->pendingValid());
    m_revert->setEnabled(pending);
    QUndoStack* stack = m_model ? m_model->undoStack() : nullptr;
    m_undo->setEnabled(editable && stack && stack->canUndo());
    m_redo->setEnabled(editable && stack && stack->canRedo());
    m_undo->setToolTip(stack && stack->canUndo() ? tr("Undo: %1").arg(stack->undoText()) : tr("Nothing to undo"));
}

QString CacheWayHeatmap::readOnlyText() const
{
    if (m_model && m_model->isEditable())
        return {};
    const QString why = m_model ? m_model->readOnlyReason() : tr("no allocation data");
    return tr("Editing disabled: %1. Monitoring still works.").arg(why);
}

QString CacheWayHeatmap::statusText() const { return m_status->text(); }

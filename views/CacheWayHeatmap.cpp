// SPDX-License-Identifier: GPL-3.0-or-later
#include "CacheWayHeatmap.h"
#include "core/Text.h"

#include "ColourScheme.h"
#include "HeatmapGrid.h"
#include "core/Units.h"
#include "models/AllocationModel.h"

#include <QAction>
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
    m_cacheLabel = new QLabel(tr("Cache:"), this);
    bar->addWidget(m_cacheLabel);
    bar->addWidget(m_cacheBox);
    m_cacheLabel->setBuddy(m_cacheBox); // a label's buddy takes its text as the accessible name
    auto* domainLabel = new QLabel(tr("Domain:"), this);
    domainLabel->setBuddy(m_domainBox);
    bar->addWidget(domainLabel);
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
    m_simulated->setStyleSheet(
        QStringLiteral("QLabel { color: palette(highlighted-text); background: palette(highlight);"
                       " border-radius: 3px; padding: 1px 6px; }"));
    bar->addWidget(m_simulated);

    m_banner->setWordWrap(true);
    colourscheme::followPalette(m_banner, colourscheme::warningBannerStyle);
    m_status->setWordWrap(true);
    colourscheme::useErrorText(m_status);
    m_live->setChecked(true);
    m_apply->setObjectName(QStringLiteral("apply"));
    m_cacheBox->setObjectName(QStringLiteral("cache"));
    m_domainBox->setObjectName(QStringLiteral("domain"));
    m_revert->setObjectName(QStringLiteral("revert"));
    m_live->setObjectName(QStringLiteral("applyLive"));
    m_live->setToolTip(tr("On: a drag writes the mask when released. Off (the default on real hardware): a drag "
                          "only stages the edit, shown dashed, and Apply writes it. A click never edits."));

    m_status->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_banner);
    m_info = new QLabel(this);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_info->setWordWrap(true);
    layout->addWidget(m_info);
    // Many CLOS or domains scroll instead of squeezing the cells (the grid's height follows its width).
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    layout->addWidget(scroll, 1);
    // What another program (pqos, a shell) changed: the rows carry a "!" badge and an outline until dismissed.
    m_externalBar = new QWidget(this);
    auto* external = new QHBoxLayout(m_externalBar);
    external->setContentsMargins(0, 0, 0, 0);
    m_external = new QLabel(m_externalBar);
    m_external->setWordWrap(true);
    auto* dismiss = new QPushButton(tr("Dismiss"), m_externalBar);
    dismiss->setObjectName(QStringLiteral("dismissExternal"));
    dismiss->setToolTip(tr("Remove the marks of changes made by another program"));
    external->addWidget(m_external, 1);
    external->addWidget(dismiss);
    m_externalBar->hide();
    layout->addWidget(m_externalBar);
    layout->addWidget(m_status);
    connect(dismiss, &QPushButton::clicked, this, [this] {
        if (m_model) m_model->acknowledgeExternalChanges();
    });

    connect(m_cacheBox, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (m_model && !name.isEmpty()) m_model->setCache(name);
    });
    connect(m_domainBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_model && i >= 0) m_model->setDomain(m_domainBox->itemData(i).toInt());
        m_info->setText(cacheInfoText());
    });
    connect(m_live, &QCheckBox::toggled, this, [this](bool on) {
        if (m_model) m_model->setApplyLive(on);
        syncControls();
    });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (m_model) m_model->apply();
    });
    connect(m_revert, &QPushButton::clicked, this, [this] {
        if (m_model) m_model->revert();
    });
    connect(m_undo, &QToolButton::clicked, this, [this] {
        if (m_model && m_model->undoStack()) m_model->undoStack()->undo();
    });
    connect(m_redo, &QToolButton::clicked, this, [this] {
        if (m_model && m_model->undoStack()) m_model->undoStack()->redo();
    });
    connect(m_grid, &HeatmapGrid::currentCellChanged, this, [this](int row, int bit) {
        if (m_model) Q_EMIT explainRequested(conceptForCell(*m_model, row, bit));
    });
    m_undoAction = new QAction(tr("Undo allocation edit"), this);
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_redoAction = new QAction(tr("Redo allocation edit"), this);
    // Ctrl+Shift+Z everywhere, plus whatever the platform's Redo binding is (Ctrl+Y on some themes).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)))
        redoKeys.prepend(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    m_redoAction->setShortcuts(redoKeys);
    m_redoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_undoAction);
    addAction(m_redoAction);
    connect(m_undoAction, &QAction::triggered, m_undo, &QToolButton::click);
    connect(m_redoAction, &QAction::triggered, m_redo, &QToolButton::click);
    syncControls();
}

QString CacheWayHeatmap::conceptForCell(const AllocationModel& model, int row, int bit)
{
    const QModelIndex idx = model.index(row, bit);
    if (!idx.isValid()) return QStringLiteral("cat");
    if (idx.data(AllocationModel::HardwareSharedRole).toBool()) return QStringLiteral("shareable-bits");
    if (idx.data(AllocationModel::GroupRole).toString().isEmpty()) return QStringLiteral("closid0");
    if (const CacheSchema* s = model.rowSchema(row); s && !s->cdpType().empty()) return QStringLiteral("cdp");
    return QStringLiteral("cat");
}

void CacheWayHeatmap::setUndoShortcutsEnabled(bool enabled)
{
    m_undoAction->setEnabled(enabled);
    m_redoAction->setEnabled(enabled);
}

void CacheWayHeatmap::setModel(AllocationModel* model)
{
    for (const auto& c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_model = model;
    m_grid->setModel(model);
    if (model) {
        m_connections << connect(model, &AllocationModel::editableChanged, this, &CacheWayHeatmap::syncControls)
                      << connect(model, &AllocationModel::pendingChanged, this, &CacheWayHeatmap::syncControls)
                      << connect(model, &QAbstractItemModel::modelReset, this, &CacheWayHeatmap::syncSelectors)
                      << connect(model, &AllocationModel::stateChanged, this, &CacheWayHeatmap::syncSelectors)
                      << connect(model, &AllocationModel::editRejected, this,
                             [this](int, const QString& message) {
                                 m_status->setText(tr("The backend refused the edit: %1").arg(message));
                                 m_status->show();
                             })
                      << connect(
                             model, &AllocationModel::allocationWritten, this, [this](const rdt::AllocationChanged& c) {
                                 if (c.ok) {
                                     m_status->clear();
                                     m_status->hide();
                                 }
                             });
        m_connections << connect(model, &AllocationModel::externalChangesChanged, this, &CacheWayHeatmap::syncExternal);
        m_connections << connect(model, &AllocationModel::stateChanged, this, &CacheWayHeatmap::syncExternal);
        if (QUndoStack* stack = model->undoStack()) {
            m_connections << connect(stack, &QUndoStack::indexChanged, this, &CacheWayHeatmap::syncControls);
        }
    }
    syncSelectors();
    syncControls();
    syncExternal();
}

QString CacheWayHeatmap::externalText() const
{
    const int n = m_model ? m_model->externalChangeCount() : 0;
    if (n == 0) return {};
    return (n == 1 ? tr("1 allocation change made by another program (pqos, a shell) is marked")
                   : tr("%1 allocation changes made by another program (pqos, a shell) are marked").arg(n))
        + tr(" with ! on the grid; hover a marked row for what changed and when.");
}

void CacheWayHeatmap::syncExternal()
{
    const QString text = externalText();
    m_external->setText(text);
    m_externalBar->setVisible(!text.isEmpty());
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
    if (m_model) m_cacheBox->setCurrentText(m_model->cache());
    m_cacheBox->setVisible(caches.size() > 1);
    m_cacheLabel->setVisible(caches.size() > 1);
    m_info->setText(cacheInfoText());
    const QList<int> domains = m_model ? m_model->domains() : QList<int>();
    QList<int> shown;
    for (int i = 0; i < m_domainBox->count(); ++i)
        shown << m_domainBox->itemData(i).toInt();
    if (shown != domains) {
        m_domainBox->clear();
        for (int d : domains)
            m_domainBox->addItem(QString::number(d), d);
    }
    if (m_model) m_domainBox->setCurrentIndex(m_domainBox->findData(m_model->domain()));
    m_simulated->setVisible(m_model && m_model->state().simulated);
    syncControls();
}

void CacheWayHeatmap::syncControls()
{
    const bool editable = m_model && m_model->isEditable();
    const bool pending = m_model && m_model->hasPendingEdits();
    if (m_model && m_live->isChecked() != m_model->applyLive()) {
        const QSignalBlocker block(m_live); // the model may have been switched directly
        m_live->setChecked(m_model->applyLive());
    }
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
    if (m_model && m_model->isEditable()) return {};
    const QString why = m_model ? m_model->readOnlyReason() : tr("no allocation data");
    return tr("Editing disabled: %1. Monitoring still works.").arg(why);
}

QSize CacheWayHeatmap::sizeHint() const
{
    // Wide enough for the whole grid and its legend, so nothing scrolls at the preferred size.
    const QSize base = QWidget::sizeHint();
    return QSize(std::max(base.width(), m_grid->sizeHint().width() + 16), base.height());
}

QString CacheWayHeatmap::cacheInfoText() const
{
    if (!m_model || m_model->rowCount() == 0) return tr("No cache allocation on this source");
    const CacheSchema* s = m_model->rowSchema(0);
    QString t = tr("%1 domain %2: ").arg(QString::fromStdString(s->cacheName())).arg(m_model->domain());
    // The size is unknown in a replay of a session without a CPUID snapshot: left out, never "0 B".
    t += s->cacheBytes == 0 ? tr("%1-bit CBM (cache size not recorded)").arg(s->cbmLength)
                            : tr("%1, %2-bit CBM, %3 per bit")
                                  .arg(QString::fromStdString(rdt::formatBytes(double(s->cacheBytes))))
                                  .arg(s->cbmLength)
                                  .arg(QString::fromStdString(rdt::formatBytes(double(s->bytesPerBit()))));
    if (s->ways > 0)
        t += s->waysLeaf.empty() ? tr(" (%1 ways)").arg(s->ways)
                                 : tr(" (%1 ways, %2)").arg(s->ways).arg(QString::fromStdString(s->waysLeaf));
    if (!s->cdpType().empty()) t += tr("; CDP: separate CODE and DATA masks");
    t += tr("; min %n bit(s)", nullptr, s->minCbmBits);
    t += s->sparseMasks ? tr(", sparse masks allowed") : tr(", contiguous masks only");
    if (s->shareableBits) t += tr("; hardware-shared %1").arg(QString::fromStdString(rdt::formatHex(s->shareableBits)));
    if (const auto io = s->ioAllocMask(m_model->domain()); io || s->ioAllocClosid >= 0)
        t += tr("; io_alloc: I/O ways %1, CLOS %2 held for I/O (groups get one CLOS fewer)")
                 .arg(QString::fromStdString(rdt::formatHex(io)))
                 .arg(s->ioAllocClosid);
    if (s->sncNodes > 1) // resctrl.rst "Notes on Sub-NUMA Cluster mode"
        t += tr("; SNC: %1 nodes share this L3, each bit gives a node %2")
                 .arg(s->sncNodes)
                 .arg(QString::fromStdString(rdt::formatBytes(double(s->bytesPerBit() / s->sncNodes))));
    return t;
}

QString CacheWayHeatmap::statusText() const
{
    return m_status->text();
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "HeatmapGrid.h"
#include "core/Text.h"

#include "HeatmapGridAccessible.h"
#include "HeatmapPainter.h"
#include "core/Units.h"
#include "models/AllocationModel.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <bit>

namespace {
constexpr int InfoW = 250; ///< the occupancy and reason column beside a single domain
} // namespace

HeatmapGrid::HeatmapGrid(QWidget* parent)
    : QWidget(parent)
{
    // What a screen reader says for the painted cells. First: setAccessibleName() below already creates (and
    // caches) this widget's accessible interface, which must come from the factory.
    heatmapaccessible::install();
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    // QScrollArea asks heightForWidth() only when the size policy says so; without the flag it keeps the grid at the
    // viewport's height and domain panels wrapped below fall outside the widget, out of reach of the scroll bar.
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setAccessibleName(tr("Cache-way heatmap"));
    setAccessibleDescription(tr("One row per group, one column per cache-way bit. Arrow keys move the cursor; "
                                "Shift+Left/Right stage a range, Space toggles a bit, Enter applies, Escape cancels."));
    m_lineHeight = fontMetrics().height();
}

void HeatmapGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        m_lineHeight = fontMetrics().height();
        m_gridLeft = -1;
        m_layoutValid = false;
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

void HeatmapGrid::setModel(AllocationModel* model)
{
    m_gridLeft = -1;
    m_layoutValid = false;
    if (m_model) disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (model) {
        // Values changed: repaint (at most once per frame, Qt merges update()s). Rows or labels changed: re-measure.
        auto relayout = [this] {
            m_gridLeft = -1;
            m_layoutValid = false;
            m_cursorRow = std::clamp(m_cursorRow, 0, std::max(0, rowCountSafe() - 1));
            m_cursorBit = std::clamp(m_cursorBit, 0, std::max(0, bitCount() - 1));
            updateGeometry();
            update();
        };
        auto repaint = [this] { update(); };
        connect(model, &QAbstractItemModel::dataChanged, this, repaint);
        connect(model, &QAbstractItemModel::modelReset, this, [this, relayout] {
            m_dragRow = -1;
            m_keyboardDrag = false;
            relayout();
        });
        connect(model, &QAbstractItemModel::headerDataChanged, this, relayout);
        connect(model, &AllocationModel::editableChanged, this, repaint);
    }
    updateGeometry();
    update();
}

int HeatmapGrid::bitCount() const
{
    return m_model ? m_model->columnCount() : 0;
}
int HeatmapGrid::rowCountSafe() const
{
    return m_model ? m_model->rowCount() : 0;
}

int HeatmapGrid::gridLeft() const
{
    // Measured once per model/font change: cellRect() runs per cell per frame.
    if (m_gridLeft < 0) {
        int w = fontMetrics().horizontalAdvance(QStringLiteral("default CODE*"));
        for (int r = 0; r < rowCountSafe(); ++r)
            w = std::max(w, fontMetrics().horizontalAdvance(m_model->rowLabel(r) + QStringLiteral("*")));
        m_gridLeft = HeatmapLayout::Margin + w + 10;
    }
    return m_gridLeft;
}

HeatmapLayout::Input HeatmapGrid::layoutInput(int w) const
{
    QList<int> domains = m_model ? m_model->domains() : QList<int>();
    if (domains.isEmpty()) domains << (m_model ? m_model->domain() : 0);
    return { w, gridLeft(), rowCountSafe(), bitCount(), domains, fontMetrics() };
}

const HeatmapLayout& HeatmapGrid::layout() const
{
    if (!m_layoutValid || m_layoutWidth != width()) {
        m_layout = HeatmapLayout::compute(layoutInput(width()));
        m_layoutWidth = width();
        m_layoutValid = true;
    }
    return m_layout;
}

HeatmapLegend HeatmapGrid::legend() const
{
    return HeatmapLegend(fontMetrics(), gridLeft(), m_model && HeatmapLegend::ioAllocShown(*m_model));
}

void HeatmapGrid::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_model || rowCountSafe() == 0 || bitCount() == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No cache allocation (CAT) on this source"));
        return;
    }
    std::optional<HeatmapPainter::Cell> cursor;
    if (hasFocus()) cursor = HeatmapPainter::Cell { m_cursorRow, m_cursorBit };
    HeatmapPainter(*m_model, layout(), *this, gridLeft(), cursor).paint(p);
}

int HeatmapGrid::currentDomain() const
{
    return m_model ? m_model->domain() : 0;
}

QRect HeatmapGrid::cellRect(int row, int bit) const
{
    return cellRect(row, bit, currentDomain());
}

QRect HeatmapGrid::cellRect(int row, int bit, int domain) const
{
    const HeatmapLayout& l = layout();
    const HeatmapLayout::Panel* p = l.panelFor(domain);
    return p ? l.cellRect(*p, row, bit) : QRect();
}

int HeatmapGrid::rowAt(const QPoint& pos) const
{
    int panel = -1, row = -1, bit = -1;
    return layout().hit(pos, &panel, &row, &bit) ? row : -1;
}

int HeatmapGrid::bitAt(const QPoint& pos, bool clamp) const
{
    int panel = -1, row = -1, bit = -1;
    if (clamp) {
        panel = m_dragPanel >= 0 ? m_dragPanel : 0;
        layout().hit(pos, &panel, &row, &bit, true);
        return bit;
    }
    return layout().hit(pos, &panel, &row, &bit) ? bit : -1;
}

int HeatmapGrid::domainAt(const QPoint& pos) const
{
    int panel = -1, row = -1, bit = -1;
    return layout().hit(pos, &panel, &row, &bit) ? layout().panels[panel].domain : -1;
}

void HeatmapGrid::setCursorCell(int row, int bit)
{
    const int r = std::clamp(row, 0, std::max(0, rowCountSafe() - 1));
    const int b = std::clamp(bit, 0, std::max(0, bitCount() - 1));
    const bool moved = r != m_cursorRow || b != m_cursorBit;
    m_cursorRow = r;
    m_cursorBit = b;
    update();
    if (moved) heatmapaccessible::cursorMoved(this);
    if (moved || hasFocus()) Q_EMIT currentCellChanged(r, b);
}

quint64 HeatmapGrid::rangeMask(int anchor, int current, int minBits, int length)
{
    if (length <= 0) return 0;
    anchor = std::clamp(anchor, 0, length - 1);
    current = std::clamp(current, 0, length - 1);
    int lo = std::min(anchor, current);
    int hi = std::max(anchor, current);
    const int want = std::clamp(minBits, 1, length);
    const bool up = current >= anchor;
    while (hi - lo + 1 < want) {
        // min_cbm_bits holds while dragging: grow towards the drag, or away from the edge it hit.
        if ((up && hi < length - 1) || lo == 0)
            ++hi;
        else
            --lo;
    }
    quint64 m = 0;
    for (int b = lo; b <= hi; ++b)
        m |= quint64(1) << b;
    return m;
}

void HeatmapGrid::beginDrag(int row, int bit)
{
    m_dragRow = row;
    m_anchorBit = bit;
    m_dragBit = bit;
    m_dragMoved = false;
    setCursorCell(row, bit);
}

void HeatmapGrid::updateDrag(int bit)
{
    if (m_dragRow < 0 || bit < 0) return;
    if (bit != m_anchorBit) m_dragMoved = true;
    m_dragBit = bit;
    if (bit != m_cursorBit) {
        m_cursorBit = bit;
        heatmapaccessible::cursorMoved(this);
    }
    if (m_dragMoved) {
        const CacheSchema* s = m_model->rowSchema(m_dragRow);
        m_model->setPreview(m_dragRow, rangeMask(m_anchorBit, bit, s->minCbmBits, s->cbmLength));
    }
}

void HeatmapGrid::finishDrag(bool moved)
{
    const int row = m_dragRow;
    m_dragRow = -1;
    m_keyboardDrag = false;
    if (row < 0 || !m_model) return;
    m_model->clearPreview();
    if (!moved) return; // a click only selects the cell (and the explain panel follows): it never edits

    const CacheSchema* s = m_model->rowSchema(row);
    m_model->setPendingMask(row, rangeMask(m_anchorBit, m_dragBit, s->minCbmBits, s->cbmLength));
}

void HeatmapGrid::cancelDrag()
{
    m_dragRow = -1;
    m_keyboardDrag = false;
    if (m_model) m_model->clearPreview();
}

void HeatmapGrid::toggleCell(int row, int bit)
{
    const CacheSchema* s = m_model->rowSchema(row);
    if (!s) return;
    if (s->sparseMasks)
        m_model->setPendingMask(row, m_model->mask(row) ^ (quint64(1) << bit));
    else
        m_model->setPendingMask(row, rangeMask(bit, bit, s->minCbmBits, s->cbmLength));
}

void HeatmapGrid::mousePressEvent(QMouseEvent* event)
{
    int panel = -1, row = -1, bit = -1;
    if (event->button() != Qt::LeftButton || !m_model
        || !layout().hit(event->position().toPoint(), &panel, &row, &bit)) {
        QWidget::mousePressEvent(event);
        return;
    }
    setFocus(Qt::MouseFocusReason);
    // The pressed panel's domain becomes the one edits (and the keyboard) go to.
    m_model->setDomain(layout().panels[panel].domain);
    m_dragPanel = panel;
    if (!m_model->isEditable()) {
        setCursorCell(row, bit);
        QToolTip::showText(
            event->globalPosition().toPoint(), tr("Editing is disabled: %1").arg(m_model->readOnlyReason()), this);
        return;
    }
    if (event->modifiers() & Qt::ControlModifier) { // Ctrl+click: the deliberate one-cell edit
        setCursorCell(row, bit);
        toggleCell(row, bit);
        return;
    }
    beginDrag(row, bit);
}

void HeatmapGrid::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragRow >= 0 && !m_keyboardDrag && (event->buttons() & Qt::LeftButton))
        updateDrag(bitAt(event->position().toPoint(), true)); // the row stays the one pressed
}

void HeatmapGrid::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_dragRow < 0 || m_keyboardDrag) return;
    updateDrag(bitAt(event->position().toPoint(), true));
    finishDrag(m_dragMoved);
}

void HeatmapGrid::keyPressEvent(QKeyEvent* event)
{
    if (!m_model || rowCountSafe() == 0) {
        QWidget::keyPressEvent(event);
        return;
    }
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    const bool editable = m_model->isEditable();
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right: {
        // Left is towards the most significant bit, as painted.
        const int bit = std::clamp(m_cursorBit + (event->key() == Qt::Key_Left ? 1 : -1), 0, bitCount() - 1);
        if (shift && editable) {
            if (m_dragRow < 0) {
                beginDrag(m_cursorRow, m_cursorBit);
                m_keyboardDrag = true;
            }
            updateDrag(bit);
        } else {
            setCursorCell(m_cursorRow, bit);
        }
        update();
        return;
    }
    case Qt::Key_Up:
    case Qt::Key_Down:
        if (m_dragRow < 0) setCursorCell(m_cursorRow + (event->key() == Qt::Key_Up ? -1 : 1), m_cursorBit);
        return;
    case Qt::Key_Space:
        if (editable && m_dragRow < 0) toggleCell(m_cursorRow, m_cursorBit);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_keyboardDrag)
            finishDrag(m_dragMoved);
        else if (editable && m_model->hasPendingEdits())
            m_model->apply();
        return;
    case Qt::Key_Escape:
        if (m_dragRow >= 0)
            cancelDrag();
        else
            m_model->revert();
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

bool HeatmapGrid::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_model) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos());
        const int bit = bitAt(help->pos());
        const int domain = domainAt(help->pos());
        QString text;
        if (row >= 0 && bit >= 0 && domain != m_model->domain()) { // another domain's panel: its own figures
            const quint64 m = m_model->maskIn(row, domain);
            quint64 bytes = 0;
            text = tr("%1, domain %2, bit %3\nmask %4 (%n bit(s))", nullptr, std::popcount(m))
                       .arg(m_model->rowLabel(row))
                       .arg(domain)
                       .arg(bit)
                       .arg(QString::fromStdString(rdt::formatHex(m)));
            if (m_model->occupancyIn(row, domain, &bytes))
                text += tr("\noccupancy %1").arg(QString::fromStdString(rdt::formatBytes(double(bytes))));
            if (const QString ext = m_model->externalChangeIn(row, domain); !ext.isEmpty())
                text += QLatin1Char('\n') + ext;
            text += tr("\nClick to select this domain; drag along the row to change its mask.");
        } else if (row >= 0 && bit >= 0)
            text = m_model->index(row, bit).data(Qt::ToolTipRole).toString();
        else if (row >= 0)
            text = m_model->headerData(row, Qt::Vertical, Qt::ToolTipRole).toString() + QLatin1Char('\n')
                + m_model->rowError(row);
        if (text.trimmed().isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text.trimmed(), this);
        return true;
    }
    return QWidget::event(event);
}

QSize HeatmapGrid::sizeHint() const
{
    // Every domain on one line at a comfortable cell width (the scroll area wraps or scrolls below it).
    const HeatmapLayout::Input in = layoutInput(0);
    const int n = std::max<int>(1, static_cast<int>(in.domains.size()));
    const int perLine = std::min(n, 4);
    const int w
        = std::max(HeatmapLayout::widthFor(in, n == 1 ? HeatmapLayout::MaxCellW : 16, perLine) + (n == 1 ? InfoW : 0),
            legend().width());
    return QSize(w, heightForWidth(w));
}

QSize HeatmapGrid::minimumSizeHint() const
{
    // One panel at the smallest readable cells; narrower than that the scroll area scrolls.
    const HeatmapLayout::Input in = layoutInput(0);
    const bool single = in.domains.size() <= 1; // one domain always draws full-size cells
    const int w = HeatmapLayout::widthFor(in, single ? HeatmapLayout::MaxCellW : HeatmapLayout::MinCellW, 1);
    return QSize(w, std::min(heightForWidth(w), 160));
}

bool HeatmapGrid::hasHeightForWidth() const
{
    return true;
}

int HeatmapGrid::heightForWidth(int w) const
{
    const HeatmapLayout l = HeatmapLayout::compute(layoutInput(w));
    return l.bottom + legend().height(w) + 12;
}

void HeatmapGrid::resizeEvent(QResizeEvent* event)
{
    m_layoutValid = false;
    QWidget::resizeEvent(event);
}

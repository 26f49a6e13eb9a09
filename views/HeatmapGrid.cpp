// SPDX-License-Identifier: GPL-3.0-or-later
#include "HeatmapGrid.h"

#include "HeatmapPalette.h"
#include "core/Units.h"
#include "models/AllocationModel.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace {
constexpr int CellW = 26;
constexpr int CellH = 24;
constexpr int RowGap = 3;
constexpr int InfoW = 250;
constexpr int Margin = 6;
} // namespace

HeatmapGrid::HeatmapGrid(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    setAccessibleName(tr("Cache-way heatmap"));
    m_lineHeight = fontMetrics().height();
}

void HeatmapGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        m_lineHeight = fontMetrics().height();
        m_gridLeft = -1;
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

void HeatmapGrid::setModel(AllocationModel* model)
{
    m_gridLeft = -1;
    if (m_model) disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (model) {
        // Values changed: repaint (at most once per frame, Qt merges update()s). Rows or labels changed: re-measure.
        auto relayout = [this] {
            m_gridLeft = -1;
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
        m_gridLeft = Margin + w + 10;
    }
    return m_gridLeft;
}

int HeatmapGrid::gridRight() const
{
    return gridLeft() + bitCount() * CellW;
}

QRect HeatmapGrid::cellRect(int row, int bit) const
{
    const int bits = bitCount();
    if (row < 0 || row >= rowCountSafe() || bit < 0 || bit >= bits) return {};
    const int top = Margin + m_lineHeight + 6;
    const int column = bits - 1 - bit; // most significant bit on the left
    return QRect(gridLeft() + column * CellW, top + row * (CellH + RowGap), CellW, CellH);
}

int HeatmapGrid::rowAt(const QPoint& pos) const
{
    for (int r = 0; r < rowCountSafe(); ++r) {
        const QRect c = cellRect(r, 0);
        if (pos.y() >= c.top() && pos.y() <= c.bottom() + RowGap) return r;
    }
    return -1;
}

int HeatmapGrid::bitAt(const QPoint& pos, bool clamp) const
{
    const int bits = bitCount();
    if (bits == 0) return -1;
    int column = (pos.x() - gridLeft()) / CellW;
    if (pos.x() < gridLeft()) column = -1;
    if (column < 0 || column >= bits) {
        if (!clamp) return -1;
        column = std::clamp(column, 0, bits - 1);
    }
    return bits - 1 - column;
}

void HeatmapGrid::setCursorCell(int row, int bit)
{
    m_cursorRow = std::clamp(row, 0, std::max(0, rowCountSafe() - 1));
    m_cursorBit = std::clamp(bit, 0, std::max(0, bitCount() - 1));
    update();
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
    m_cursorBit = bit;
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
    if (!moved) {
        click(row, m_anchorBit);
        return;
    }
    const CacheSchema* s = m_model->rowSchema(row);
    m_model->setPendingMask(row, rangeMask(m_anchorBit, m_dragBit, s->minCbmBits, s->cbmLength));
}

void HeatmapGrid::cancelDrag()
{
    m_dragRow = -1;
    m_keyboardDrag = false;
    if (m_model) m_model->clearPreview();
}

void HeatmapGrid::click(int row, int bit)
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
    const int row = rowAt(event->position().toPoint());
    const int bit = bitAt(event->position().toPoint());
    if (event->button() != Qt::LeftButton || row < 0 || bit < 0 || !m_model) {
        QWidget::mousePressEvent(event);
        return;
    }
    setFocus(Qt::MouseFocusReason);
    if (!m_model->isEditable()) {
        setCursorCell(row, bit);
        QToolTip::showText(
            event->globalPosition().toPoint(), tr("Editing is disabled: %1").arg(m_model->readOnlyReason()), this);
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
        if (editable && m_dragRow < 0) click(m_cursorRow, m_cursorBit);
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
        QString text;
        if (row >= 0 && bit >= 0)
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
    const int rows = rowCountSafe();
    const int h = Margin + fontMetrics().height() + 6 + rows * (CellH + RowGap) + 2 * fontMetrics().height() + 16;
    // The legend line: swatch + text per entry (kept in step with paintLegend).
    int legend = gridLeft();
    for (const QString& t : { tr("allocated"), tr("overlapping"), tr("exclusive"), tr("hardware-shared"), tr("unused"),
             tr("invalid"), tr("occupancy") })
        legend += fontMetrics().height() - 4 + 4 + fontMetrics().horizontalAdvance(t) + 14;
    return QSize(std::max(gridRight() + 12 + InfoW + Margin, legend), h);
}

QSize HeatmapGrid::minimumSizeHint() const
{
    // The cells must stay visible (the scroll area scrolls below this); the info column and legend may clip.
    const int rows = rowCountSafe();
    return QSize(gridRight() + 60, Margin + fontMetrics().height() + 6 + rows * (CellH + RowGap) + 4);
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
    // Bit numbers above the columns.
    p.setPen(palette().color(QPalette::Text));
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
    p.setFont(small);
    for (int b = 0; b < bitCount(); ++b) {
        const QRect c = cellRect(0, b);
        p.drawText(QRect(c.left(), Margin, CellW, c.top() - Margin - 2), Qt::AlignHCenter | Qt::AlignBottom,
            QString::number(b));
    }
    p.setFont(font());
    for (int r = 0; r < rowCountSafe(); ++r)
        paintRow(p, r);
    paintLegend(p);
}

void HeatmapGrid::paintRow(QPainter& p, int row)
{
    const HeatmapPalette colours(palette());
    const QModelIndex first = m_model->index(row, 0);
    const bool pending = first.data(AllocationModel::PendingRole).toBool();
    const QString error = first.data(AllocationModel::RowErrorRole).toString();
    const QRect left = cellRect(row, bitCount() - 1);
    const QRect right = cellRect(row, 0);
    const QRect strip = left.united(right);

    p.setPen(error.isEmpty() ? palette().color(QPalette::Text) : colours.invalid);
    p.drawText(QRect(Margin, strip.top(), strip.left() - Margin - 6, strip.height()), Qt::AlignVCenter | Qt::AlignRight,
        m_model->rowLabel(row) + (pending ? QStringLiteral("*") : QString()));

    for (int b = 0; b < bitCount(); ++b) {
        const QModelIndex idx = m_model->index(row, b);
        const QRect c = cellRect(row, b).adjusted(1, 1, -1, -1);
        const auto state = static_cast<AllocationModel::CellState>(idx.data(AllocationModel::CellStateRole).toInt());
        p.fillRect(c, colours.forState(state));
        if (idx.data(AllocationModel::HardwareSharedRole).toBool())
            p.fillRect(c, QBrush(colours.hatch, Qt::BDiagPattern));
        if (hasFocus() && row == m_cursorRow && b == m_cursorBit) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRect(c.adjusted(1, 1, -1, -1));
        }
    }
    // Live occupancy overlaid as a bar along the bottom of the row: its length is the share of the whole cache.
    const QVariant frac = first.data(AllocationModel::OccupancyFractionRole);
    if (frac.isValid()) {
        const double f = std::clamp(frac.toDouble(), 0.0, 1.0);
        const QRect bar(strip.left() + 1, strip.bottom() - 4, int(f * (strip.width() - 2)), 4);
        p.fillRect(bar, colours.occupancy);
    }
    if (pending) {
        p.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(strip.adjusted(0, 0, -1, -1));
    }

    // Beside the row: the mask, the occupancy, or the reason the row is red / was refused.
    const QRect info(strip.right() + 12, strip.top(), width() - strip.right() - 12 - Margin, strip.height());
    QString text = QStringLiteral("0x") + QString::number(first.data(AllocationModel::MaskRole).toULongLong(), 16);
    if (frac.isValid()) {
        const double bytes = double(first.data(AllocationModel::OccupancyBytesRole).toULongLong());
        text += QStringLiteral("  ") + QString::fromStdString(rdt::formatBytes(bytes));
    }
    if (!error.isEmpty()) {
        p.setPen(colours.invalid);
        text += QStringLiteral("  ") + error;
    } else {
        p.setPen(palette().color(QPalette::Text));
    }
    p.drawText(info, Qt::AlignVCenter | Qt::AlignLeft, fontMetrics().elidedText(text, Qt::ElideRight, info.width()));
}

void HeatmapGrid::paintLegend(QPainter& p)
{
    const HeatmapPalette colours(palette());
    const int top = cellRect(rowCountSafe() - 1, 0).bottom() + 10;
    const int box = fontMetrics().height() - 4;
    int x = gridLeft();
    const struct {
        QColor colour;
        bool hatch;
        QString text;
    } items[] = {
        { colours.allocated, false, tr("allocated") },
        { colours.overlapping, false, tr("overlapping") },
        { colours.exclusive, false, tr("exclusive") },
        { colours.unused, true, tr("hardware-shared") },
        { colours.unused, false, tr("unused") },
        { colours.invalid, false, tr("invalid") },
        { colours.occupancy, false, tr("occupancy") },
    };
    for (const auto& item : items) {
        const QRect sw(x, top + 2, box, box);
        p.fillRect(sw, item.colour);
        if (item.hatch) p.fillRect(sw, QBrush(colours.hatch, Qt::BDiagPattern));
        p.setPen(palette().color(QPalette::Text));
        const int tw = fontMetrics().horizontalAdvance(item.text);
        p.drawText(QRect(x + box + 4, top, tw + 2, fontMetrics().height()), Qt::AlignVCenter, item.text);
        x += box + 4 + tw + 14;
    }
}

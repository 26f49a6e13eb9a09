// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

#include "models/AllocationModel.h"

/// The painted CLOS x CBM-bit grid inside CacheWayHeatmap (use that one; this is public for tests and layout).
///
/// Columns run from the most significant bit on the left to bit 0 on the right, as masks are written
/// ("0xfc") and as resctrl's bit_usage prints them. Mouse: press-drag-release along a row selects one contiguous
/// range (at least min_cbm_bits wide, growing in the drag direction); a click toggles one bit where the cache
/// allows sparse masks and selects that bit (plus neighbours up to min_cbm_bits) otherwise. Keyboard: arrows
/// move the cursor, Shift+Left/Right drags a range from the cursor, Space is a click, Enter commits a keyboard
/// range or applies pending edits, Escape cancels a range or reverts pending edits.
class HeatmapGrid : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapGrid(QWidget* parent = nullptr);

    void setModel(AllocationModel* model);
    AllocationModel* model() const { return m_model; }

    /// Widget-coordinate rectangle of a cell; empty when out of range. Tests drive the mouse with its centre.
    QRect cellRect(int row, int bit) const;
    int rowAt(const QPoint& pos) const;
    /// The bit under x (clamped to the grid when `clamp`), or -1.
    int bitAt(const QPoint& pos, bool clamp = false) const;
    int cursorRow() const { return m_cursorRow; }
    int cursorBit() const { return m_cursorBit; }
    void setCursorCell(int row, int bit);

    /// The contiguous mask a drag from `anchor` to `current` selects: bits between them, widened in the drag
    /// direction (or the other way at the edge) until it has `minBits` bits, within `length` bits.
    static quint64 rangeMask(int anchor, int current, int minBits, int length);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void beginDrag(int row, int bit);
    void updateDrag(int bit);
    void finishDrag(bool moved);
    void cancelDrag();
    void click(int row, int bit);
    int bitCount() const;
    int rowCountSafe() const;
    int gridLeft() const;
    int gridRight() const;
    void paintRow(class QPainter& p, int row);
    void paintLegend(class QPainter& p);

    QPointer<AllocationModel> m_model;
    int m_dragRow = -1;
    int m_anchorBit = -1;
    int m_dragBit = -1;
    bool m_dragMoved = false;
    bool m_keyboardDrag = false;
    int m_cursorRow = 0;
    int m_cursorBit = 0;
    mutable int m_gridLeft = -1; ///< x of the first cell; -1 = measure again
    int m_lineHeight = 0;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

#include "HeatmapLayout.h"
#include "HeatmapLegend.h"
#include "models/AllocationModel.h"

/// The painted CLOS x CBM-bit grid inside CacheWayHeatmap (use that one; this is public for tests and layout): the
/// widget that takes the mouse and keyboard. Where the cells are is HeatmapLayout's, what they look like
/// HeatmapPainter's.
///
/// Columns run from the most significant bit on the left to bit 0 on the right, as masks are written
/// ("0xfc") and as resctrl's bit_usage prints them. A plain click only selects a cell (the explain panel follows);
/// it never edits, so looking around cannot change the hardware. Edits are staged by a press-drag-release along a
/// row (one contiguous range, at least min_cbm_bits wide, growing in the drag direction), by Ctrl+click or Space
/// (toggle one bit where the cache allows sparse masks, else that bit plus neighbours up to min_cbm_bits), or by
/// Shift+Left/Right from the cursor (Enter commits the range). Whether a staged edit is written at once is the
/// model's "Apply live" setting. Enter with nothing in progress applies pending edits, Escape cancels a range or
/// reverts pending edits.
class HeatmapGrid : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapGrid(QWidget* parent = nullptr);

    void setModel(AllocationModel* model);
    AllocationModel* model() const { return m_model; }

    /// Widget-coordinate rectangle of a cell in the model's current domain (or in `domain`); empty when out of
    /// range. Tests drive the mouse with its centre.
    QRect cellRect(int row, int bit) const;
    QRect cellRect(int row, int bit, int domain) const;
    /// The domain whose panel is under `pos`, or -1.
    int domainAt(const QPoint& pos) const;
    /// Where every domain's panel is at the current width.
    const HeatmapLayout& layout() const;
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
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;

Q_SIGNALS:
    /// The keyboard/mouse cursor moved to a cell (for the explain panel).
    void currentCellChanged(int row, int bit);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void beginDrag(int row, int bit);
    void updateDrag(int bit);
    void finishDrag(bool moved);
    void cancelDrag();
    void toggleCell(int row, int bit);
    int bitCount() const;
    int rowCountSafe() const;
    int gridLeft() const;
    int currentDomain() const;
    HeatmapLayout::Input layoutInput(int width) const;
    /// The legend below the grid as it is now (it names the I/O ways when a row's cache has them).
    HeatmapLegend legend() const;

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
    int m_dragPanel = -1; ///< the panel a drag started in (the bit is clamped into it)
    mutable HeatmapLayout m_layout;
    mutable bool m_layoutValid = false;
    mutable int m_layoutWidth = -1;
};

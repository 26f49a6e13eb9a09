// SPDX-License-Identifier: GPL-3.0-or-later
#include "HeatmapGridAccessible.h"

#include "HeatmapGrid.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QHash>
#include <QPointer>

namespace {

int rowsOf(const HeatmapGrid* g)
{
    return g && g->model() ? g->model()->rowCount() : 0;
}
int bitsOf(const HeatmapGrid* g)
{
    return g && g->model() ? g->model()->columnCount() : 0;
}

/// One cell of the current domain. Children of a painted widget have no QObject: they are created on demand,
/// registered with QAccessible (which hands out their ids) and deleted with the grid's interface.
class CellAccessible : public QAccessibleInterface {
public:
    CellAccessible(HeatmapGrid* grid, int row, int bit)
        : m_grid(grid)
        , m_row(row)
        , m_bit(bit)
    { }
    bool isValid() const override { return m_grid && m_row < rowsOf(m_grid) && m_bit < bitsOf(m_grid); }
    QObject* object() const override { return nullptr; }
    QWindow* window() const override { return parent() ? parent()->window() : nullptr; }
    QAccessibleInterface* parent() const override { return QAccessible::queryAccessibleInterface(m_grid); }
    QAccessibleInterface* child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface*) const override { return -1; }
    QAccessibleInterface* childAt(int, int) const override { return nullptr; }
    QString text(QAccessible::Text t) const override
    {
        if (!isValid()) return {};
        AllocationModel* m = m_grid->model();
        if (t == QAccessible::Name) return m->cellAccessibleText(m_row, m_bit, m->domain());
        if (t == QAccessible::Description) return m->index(m_row, m_bit).data(Qt::AccessibleDescriptionRole).toString();
        return {};
    }
    void setText(QAccessible::Text, const QString&) override { }
    QRect rect() const override
    {
        if (!isValid()) return {};
        const QRect r = m_grid->cellRect(m_row, m_bit);
        return QRect(m_grid->mapToGlobal(r.topLeft()), r.size());
    }
    QAccessible::Role role() const override { return QAccessible::Cell; }
    QAccessible::State state() const override
    {
        QAccessible::State s;
        s.focusable = true;
        s.selectable = true;
        const bool cursor = isValid() && m_grid->cursorRow() == m_row && m_grid->cursorBit() == m_bit;
        s.focused = cursor && m_grid->hasFocus();
        s.selected = cursor;
        s.readOnly = !isValid() || !m_grid->model()->isEditable();
        return s;
    }
    int row() const { return m_row; }
    int bit() const { return m_bit; }

private:
    QPointer<HeatmapGrid> m_grid;
    int m_row;
    int m_bit;
};

class GridAccessible : public QAccessibleWidget {
public:
    explicit GridAccessible(HeatmapGrid* grid)
        : QAccessibleWidget(grid, QAccessible::Table)
    { }
    ~GridAccessible() override
    {
        for (QAccessible::Id id : std::as_const(m_cells))
            QAccessible::deleteAccessibleInterface(id);
    }
    HeatmapGrid* grid() const { return static_cast<HeatmapGrid*>(widget()); }
    int childCount() const override { return rowsOf(grid()) * bitsOf(grid()); }
    QAccessibleInterface* child(int index) const override
    {
        const int bits = bitsOf(grid());
        if (index < 0 || index >= childCount() || bits == 0) return nullptr;
        const auto it = m_cells.constFind(index);
        if (it != m_cells.constEnd()) return QAccessible::accessibleInterface(*it);
        auto* cell = new CellAccessible(grid(), index / bits, index % bits);
        m_cells.insert(index, QAccessible::registerAccessibleInterface(cell));
        return cell;
    }
    int indexOfChild(const QAccessibleInterface* child) const override
    {
        for (auto it = m_cells.constBegin(); it != m_cells.constEnd(); ++it)
            if (QAccessible::accessibleInterface(it.value()) == child) return it.key();
        return -1;
    }
    QAccessibleInterface* focusChild() const override
    {
        return grid()->hasFocus() ? child(grid()->cursorRow() * bitsOf(grid()) + grid()->cursorBit()) : nullptr;
    }
    QAccessibleInterface* childAt(int x, int y) const override
    {
        const QPoint p = grid()->mapFromGlobal(QPoint(x, y));
        const int row = grid()->rowAt(p);
        const int bit = grid()->bitAt(p);
        if (row < 0 || bit < 0 || grid()->domainAt(p) != grid()->model()->domain()) return nullptr;
        return child(row * bitsOf(grid()) + bit);
    }
    QString text(QAccessible::Text t) const override
    {
        // Value: the cursor cell, so a reader that only follows the focused widget still hears where it is.
        if (t == QAccessible::Value) {
            AllocationModel* m = grid()->model();
            return m ? m->cellAccessibleText(grid()->cursorRow(), grid()->cursorBit(), m->domain()) : QString();
        }
        return QAccessibleWidget::text(t);
    }

private:
    mutable QHash<int, QAccessible::Id> m_cells; ///< child index -> registered cell interface
};

QAccessibleInterface* factory(const QString& className, QObject* object)
{
    if (className == QLatin1String("HeatmapGrid") && object && object->isWidgetType())
        return new GridAccessible(static_cast<HeatmapGrid*>(object));
    return nullptr;
}

} // namespace

namespace heatmapaccessible {

void install()
{
    static const bool installed = [] {
        QAccessible::installFactory(factory);
        return true;
    }();
    (void)installed;
}

void cursorMoved(HeatmapGrid* grid)
{
    if (!QAccessible::isActive()) return; // no screen reader: Qt would drop the events anyway
    QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(grid);
    if (!iface) return;
    QAccessibleValueChangeEvent value(grid, iface->text(QAccessible::Value));
    QAccessible::updateAccessibility(&value);
    if (QAccessibleInterface* cell = iface->focusChild()) {
        QAccessibleEvent focus(cell, QAccessible::Focus);
        QAccessible::updateAccessibility(&focus);
    }
}

} // namespace heatmapaccessible

// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineGroupList.h"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

constexpr int kGroupRole = Qt::UserRole + 1;
constexpr int kTopCount = 8;

QIcon swatch(const QColor& color)
{
    QPixmap p(18, 8);
    p.fill(Qt::transparent);
    QPainter painter(&p);
    painter.fillRect(QRect(0, 2, 18, 4), color);
    return QIcon(p);
}

} // namespace

TimelineGroupList::TimelineGroupList(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 0, 2, 0);
    layout->setSpacing(2);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter groups..."));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter the timeline's groups"));
    connect(m_filter, &QLineEdit::textChanged, this, &TimelineGroupList::applyFilter);
    layout->addWidget(m_filter);

    m_list = new QListWidget(this);
    m_list->setAccessibleName(tr("Groups plotted on the timeline"));
    m_list->setToolTip(tr("Tick the groups to plot; each line has the colour shown"));
    m_list->setTextElideMode(Qt::ElideNone); // whole names: the list scrolls sideways instead
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        Q_EMIT checkedChanged(item->data(kGroupRole).toString(), item->checkState() == Qt::Checked);
    });
    layout->addWidget(m_list, 1);

    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(2);
    auto button = [&](const QString& text, const QString& tip, auto&& onClick) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, this, onClick);
        buttons->addWidget(b);
    };
    auto setAllShown = [this](bool on) {
        for (int i = 0; i < m_list->count(); ++i)
            if (!m_list->item(i)->isHidden()) m_list->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    };
    button(tr("All"), tr("Plot every group the filter shows"), [setAllShown] { setAllShown(true); });
    button(tr("None"), tr("Plot none of the groups the filter shows"), [setAllShown] { setAllShown(false); });
    button(tr("Top %1").arg(kTopCount), tr("Plot the %1 groups with the most memory bandwidth now").arg(kTopCount),
        [this] { Q_EMIT topRequested(kTopCount); });
    buttons->addStretch(1);
    layout->addLayout(buttons);
}

QListWidgetItem* TimelineGroupList::itemFor(const QString& group) const
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(kGroupRole).toString() == group) return m_list->item(i);
    return nullptr;
}

void TimelineGroupList::addGroup(const QString& group, const QString& label, const QColor& color, bool checked)
{
    if (auto* existing = itemFor(group)) {
        existing->setIcon(swatch(color));
        return;
    }
    auto* item = new QListWidgetItem(swatch(color), label);
    item->setData(kGroupRole, group);
    item->setToolTip(label);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    const QSignalBlocker block(m_list); // adding is not a user's choice
    m_list->addItem(item);
    item->setHidden(!m_filter->text().isEmpty() && !label.contains(m_filter->text(), Qt::CaseInsensitive));
}

void TimelineGroupList::setChecked(const QString& group, bool checked)
{
    auto* item = itemFor(group);
    if (!item || (item->checkState() == Qt::Checked) == checked) return;
    const QSignalBlocker block(m_list);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

bool TimelineGroupList::isChecked(const QString& group) const
{
    const auto* item = itemFor(group);
    return item && item->checkState() == Qt::Checked;
}

void TimelineGroupList::clear()
{
    const QSignalBlocker block(m_list);
    m_list->clear();
}

int TimelineGroupList::rowCount() const
{
    return m_list->count();
}

QString TimelineGroupList::rowText(int row) const
{
    return row >= 0 && row < m_list->count() ? m_list->item(row)->text() : QString();
}

bool TimelineGroupList::rowTextFits(int row) const
{
    if (row < 0 || row >= m_list->count()) return false;
    // ElideNone draws the whole text; what the viewport cannot show is reachable by the horizontal scroll bar.
    const QRect rect = m_list->visualItemRect(m_list->item(row));
    const int needed = m_list->fontMetrics().horizontalAdvance(rowText(row));
    return rect.width() >= needed || m_list->horizontalScrollBar()->maximum() > 0;
}

void TimelineGroupList::applyFilter(const QString& text)
{
    for (int i = 0; i < m_list->count(); ++i)
        m_list->item(i)->setHidden(!text.isEmpty() && !m_list->item(i)->text().contains(text, Qt::CaseInsensitive));
}

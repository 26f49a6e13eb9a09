// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

ConnectionBanner::ConnectionBanner(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_reconnect(new QPushButton(tr("Reconnect"), this))
{
    setObjectName(QStringLiteral("connectionBanner"));
    setFrameShape(QFrame::StyledPanel);
    // The warning colours of the palette's tooltip role read on light and dark themes alike.
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, p.color(QPalette::ToolTipBase));
    p.setColor(QPalette::WindowText, p.color(QPalette::ToolTipText));
    setPalette(p);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_reconnect);
    connect(m_reconnect, &QPushButton::clicked, this, &ConnectionBanner::reconnectRequested);
    hide();
}

void ConnectionBanner::showLost(const QString& where, const QString& reason)
{
    // The engine's reason usually names the agent or its host already ("the agent on root@srv closed the
    // connection", "the ssh link to root@srv broke").
    const bool named = reason.contains(where) || reason.contains(where.section(QLatin1Char(' '), -1));
    const QString what = named ? reason : where + QStringLiteral(": ") + reason;
    m_text->setText(tr("Connection lost: %1. The data shown so far stays; nothing more arrives until you reconnect. "
                       "A change in flight was completed or rolled back on the server as a whole.")
                        .arg(what));
    show();
}

QString ConnectionBanner::text() const
{
    return isHidden() ? QString() : m_text->text(); // isHidden: the window itself need not be shown
}

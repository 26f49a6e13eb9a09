// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

/// The page shown for a view that is not built yet: says so plainly instead of showing invented data.
class UnavailablePage : public QLabel {
    Q_OBJECT
public:
    UnavailablePage(const QString& title, const QString& details, QWidget* parent = nullptr)
        : QLabel(parent)
    {
        setObjectName(QStringLiteral("unavailablePage"));
        setAlignment(Qt::AlignCenter);
        setWordWrap(true);
        setTextFormat(Qt::RichText);
        setMargin(24);
        setText(QStringLiteral("<h2>") + title.toHtmlEscaped() + QStringLiteral(" \u2014 ") + tr("not available yet")
            + QStringLiteral("</h2><p>") + details.toHtmlEscaped() + QStringLiteral("</p>"));
    }
};

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ColourSchemeMenu.h"

#include "views/ColourScheme.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

void addColourSchemeMenu(QMenu* view)
{
    QMenu* scheme = view->addMenu(QObject::tr("&Colour scheme"));
    auto* group = new QActionGroup(scheme);
    struct Choice {
        QString text;
        colourscheme::Scheme scheme;
        QKeySequence key;
        QString tip;
    };
    const Choice choices[] = {
        { QObject::tr("Follow &desktop"), colourscheme::Scheme::Desktop, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
            QObject::tr("Use the palette the desktop gives (light or dark)") },
        { QObject::tr("&Light palette"), colourscheme::Scheme::Light, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L),
            QObject::tr("Light backgrounds, dark text") },
        { QObject::tr("D&ark palette"), colourscheme::Scheme::Dark, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
            QObject::tr("Dark backgrounds, light text") },
    };
    for (const Choice& c : choices) {
        QAction* a = scheme->addAction(c.text);
        a->setCheckable(true);
        a->setChecked(colourscheme::current() == c.scheme);
        a->setShortcut(c.key);
        a->setToolTip(c.tip);
        a->setStatusTip(c.tip);
        a->setObjectName(QStringLiteral("colourScheme.")
            + c.text.toLower().remove(QLatin1Char('&')).split(QLatin1Char(' ')).first());
        group->addAction(a);
        const colourscheme::Scheme s = c.scheme;
        QObject::connect(a, &QAction::triggered, scheme, [s] {
            colourscheme::apply(s);
            colourscheme::save(s);
        });
    }
}

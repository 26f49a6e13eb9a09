// SPDX-License-Identifier: GPL-3.0-or-later
#include "ShortcutsHelp.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

void showShortcutsHelp(QWidget* parent, const QMenuBar* menus)
{
    QString html = QStringLiteral("<table cellspacing=\"4\">");
    for (QAction* top : menus->actions()) {
        if (!top->menu()) continue;
        html += QStringLiteral("<tr><td colspan=\"2\"><b>%1</b></td></tr>").arg(top->text().remove(QLatin1Char('&')));
        QList<QAction*> actions = top->menu()->actions();
        for (int i = 0; i < actions.size(); ++i) {
            QAction* a = actions[i];
            if (a->menu()) actions << a->menu()->actions();
            if (a->isSeparator() || a->menu() || a->shortcut().isEmpty()) continue;
            html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>")
                        .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                            a->text().remove(QLatin1Char('&')).toHtmlEscaped());
        }
    }
    html += QStringLiteral("</table><p>")
        + QObject::tr("In the heatmap: arrow keys move the cursor, Shift+Left/Right stage a "
                      "range, Space toggles a bit, Enter applies, Escape cancels.")
        + QStringLiteral("</p>");
    QMessageBox box(parent);
    box.setWindowTitle(QObject::tr("Keyboard shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(html);
    box.exec();
}

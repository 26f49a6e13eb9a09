// SPDX-License-Identifier: GPL-3.0-or-later
#include "ColourScheme.h"

#include <QApplication>
#include <QEvent>
#include <QSettings>
#include <QStyle>
#include <QWidget>

namespace colourscheme {
namespace {
const QString kKey = QStringLiteral("view/colourScheme");
Scheme g_current = Scheme::Desktop;

QString keyOf(Scheme s)
{
    switch (s) {
    case Scheme::Light:
        return QStringLiteral("light");
    case Scheme::Dark:
        return QStringLiteral("dark");
    case Scheme::Desktop:
        break;
    }
    return QStringLiteral("desktop");
}
} // namespace

Scheme saved()
{
    const QString v = QSettings().value(kKey).toString();
    if (v == QLatin1String("light")) return Scheme::Light;
    if (v == QLatin1String("dark")) return Scheme::Dark;
    return Scheme::Desktop;
}

void save(Scheme scheme)
{
    QSettings().setValue(kKey, keyOf(scheme));
}

void apply(Scheme scheme)
{
    g_current = scheme;
    switch (scheme) {
    case Scheme::Desktop:
        QApplication::setPalette(QPalette());
        break;
    case Scheme::Light:
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Scheme::Dark:
        QApplication::setPalette(darkPalette());
        break;
    }
}

Scheme current()
{
    return g_current;
}

QPalette darkPalette()
{
    // Every role set (a palette with unset roles would be filled from the light platform palette). Mid is kept
    // light enough for grid lines on the dark Base; disabled text is dimmed but still legible.
    const QColor window(0x2d, 0x2f, 0x33), base(0x1f, 0x21, 0x24), text(0xe6, 0xe6, 0xe6), button(0x35, 0x38, 0x3d);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2c, 0x30));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x53));
    p.setColor(QPalette::Midlight, QColor(0x3e, 0x41, 0x46));
    p.setColor(QPalette::Mid, QColor(0x6a, 0x6d, 0x73));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1c));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0e));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6));
    p.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Link, QColor(0x6c, 0xb0, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    const QColor dim(0x80, 0x83, 0x88);
    for (auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, dim);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x53, 0x58));
    return p;
}

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor errorText(const QPalette& palette)
{
    return isDark(palette) ? QColor(0xff, 0x7b, 0x72) : QColor(0xd9, 0x35, 0x35);
}

QColor warningText(const QPalette& palette)
{
    return isDark(palette) ? QColor(0xf0, 0xb4, 0x5a) : QColor(0x8a, 0x4b, 0x00);
}

QString warningBannerStyle(const QPalette& palette)
{
    return isDark(palette) ? QStringLiteral("QLabel { background: #4a3b10; color: #ffe08a; padding: 4px; }")
                           : QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 4px; }");
}

namespace {
class PaletteFollower : public QObject {
public:
    PaletteFollower(QWidget* widget, std::function<QString(const QPalette&)> style)
        : QObject(widget)
        , m_widget(widget)
        , m_style(std::move(style))
    {
        restyle();
        widget->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ParentChange) restyle();
        return false;
    }

private:
    void restyle()
    {
        // The parent's palette: the widget's own is already coloured by the style sheet. Setting the same sheet
        // again would re-polish and send another PaletteChange, so only a new sheet is set.
        const QWidget* parent = m_widget->parentWidget();
        const QString sheet = m_style(parent ? parent->palette() : QApplication::palette());
        if (sheet != m_widget->styleSheet()) m_widget->setStyleSheet(sheet);
    }
    QWidget* m_widget;
    std::function<QString(const QPalette&)> m_style;
};
} // namespace

void followPalette(QWidget* widget, std::function<QString(const QPalette&)> style)
{
    new PaletteFollower(widget, std::move(style));
}

void useErrorText(QWidget* label)
{
    followPalette(
        label, [](const QPalette& p) { return QStringLiteral("QLabel { color: %1; }").arg(errorText(p).name()); });
}

void useWarningText(QWidget* label)
{
    followPalette(
        label, [](const QPalette& p) { return QStringLiteral("QLabel { color: %1; }").arg(warningText(p).name()); });
}

} // namespace colourscheme

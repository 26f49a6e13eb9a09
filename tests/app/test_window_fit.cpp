// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #47 Tests: at 1280x720 and 1920x1080, on the simulator, the 4-domain fixture tree, the simulated EPYC, a
// generated tree of 40 L2 domains x 16 CLOS and one of 128 monitor groups, every page of the window fits: no visible
// widget reaches outside its visible parent unless that parent is a scroll area's viewport (then the user scrolls to
// it), and the window needs no more than the screen.

#include "AppOptions.h"
#include "FixtureTree.h"
#include "GeneratedTrees.h"
#include "MainWindow.h"
#include "SourceFactory.h"

#include "models/AllocationModel.h"

#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QScrollBar>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

namespace {
/// The page ids MainWindow::showView() takes, one per tab.
const QStringList kViews
    = { QStringLiteral("machine"), QStringLiteral("rdt"), QStringLiteral("tma"), QStringLiteral("callgraph"),
          QStringLiteral("latency"), QStringLiteral("experiments"), QStringLiteral("interference") };

bool isScrollViewport(const QWidget* w)
{
    const auto* area = w ? qobject_cast<const QAbstractScrollArea*>(w->parentWidget()) : nullptr;
    return area && area->viewport() == w;
}

/// A short path naming `w` for the failure message: class and object name of it and its parents.
QString describe(const QWidget* w)
{
    QStringList parts;
    for (const QWidget* p = w; p && !p->isWindow(); p = p->parentWidget())
        parts.prepend(QString::fromLatin1(p->metaObject()->className())
            + (p->objectName().isEmpty() ? QString() : QLatin1Char('#') + p->objectName()));
    return parts.join(QLatin1String(" > "));
}

/// Every visible widget of `window` that reaches outside its parent's rectangle, where the parent is not a scroll
/// area's viewport. A 1-pixel overhang (frames drawn on the edge) is allowed.
QStringList clippedWidgets(const QWidget& window)
{
    QStringList clipped;
    for (const QWidget* w : window.findChildren<QWidget*>()) {
        const QWidget* parent = w->parentWidget();
        if (!parent || w->isWindow() || !w->isVisible() || !parent->isVisible()) continue;
        if (isScrollViewport(parent) || w->geometry().isEmpty()) continue; // an empty widget shows nothing to clip
        // QMainWindow keeps a tabbed dock that is not the current tab visible and moves it off the window.
        if (qobject_cast<const QDockWidget*>(w) && !parent->rect().intersects(w->geometry())) continue;
        if (parent->rect().adjusted(-1, -1, 1, 1).contains(w->geometry())) continue;
        clipped << QStringLiteral("%1: %2,%3 %4x%5 in %6x%7")
                       .arg(describe(w))
                       .arg(w->x())
                       .arg(w->y())
                       .arg(w->width())
                       .arg(w->height())
                       .arg(parent->width())
                       .arg(parent->height());
    }
    return clipped;
}

struct Case {
    QString name;
    AppOptions options;
};
} // namespace

class TestWindowFit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString full = m_dir.path() + QStringLiteral("/full"), l2 = m_dir.path() + QStringLiteral("/l2"),
                      many = m_dir.path() + QStringLiteral("/many");
        QVERIFY(copyFixtureTree(QStringLiteral(RDTSCOPE_TEST_DATA "/resctrl/resctrl.full"), full));
        QVERIFY(writeManyL2DomainsTree(l2));
        QVERIFY(writeManyMonitorGroupsTree(many));
        AppOptions sim;
        sim.source = QStringLiteral("sim");
        sim.scenario = QStringLiteral("noisy-neighbour");
        AppOptions epyc = sim;
        epyc.preset = QStringLiteral("epyc-genoa");
        epyc.scenario = QStringLiteral("mba");
        auto tree = [](const QString& root) {
            AppOptions o;
            o.source = QStringLiteral("resctrl:") + root;
            return o;
        };
        m_cases = { { QStringLiteral("simulator"), sim }, { QStringLiteral("epyc"), epyc },
            { QStringLiteral("4-domain tree"), tree(full) }, { QStringLiteral("40 L2 domains"), tree(l2) },
            { QStringLiteral("128 monitor groups"), tree(many) } };
    }

    void everyPageFitsAtBothSizes_data()
    {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<QSize>("screen");
        for (int i = 0; i < 5; ++i)
            for (const QSize s : { QSize(1280, 720), QSize(1920, 1080) })
                QTest::newRow(qPrintable(QStringLiteral("%1 at %2x%3").arg(i).arg(s.width()).arg(s.height())))
                    << i << s;
    }

    void everyPageFitsAtBothSizes()
    {
        QFETCH(int, caseIndex);
        QFETCH(QSize, screen);
        QCOMPARE(m_cases.size(), 5);
        const Case& c = m_cases.at(caseIndex);
        MainWindow w;
        auto source = openSource(c.options);
        QVERIFY2(source.ok(), source ? "" : source.error().toString().c_str());
        w.setSource(std::move(source.value()));
        w.resize(screen);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(w.allocationModel()->rowCount() > 0, 10000);
        int checked = 0;
        for (const QString& view : kViews) {
            if (!w.showView(view)) continue;
            QTest::qWait(50); // layouts settle over a few event-loop turns (splitters restack on resize)
            QCoreApplication::processEvents();
            const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
            QVERIFY2(min.width() <= screen.width() && min.height() <= screen.height(),
                qPrintable(QStringLiteral("%1, %2: the window needs %3x%4")
                               .arg(c.name, view)
                               .arg(min.width())
                               .arg(min.height())));
            QVERIFY2(w.width() <= screen.width(),
                qPrintable(QStringLiteral("%1, %2: %3 px wide").arg(c.name, view).arg(w.width())));
            const QStringList clipped = clippedWidgets(w);
            QVERIFY2(clipped.isEmpty(),
                qPrintable(QStringLiteral("%1, %2 at %3x%4:\n%5")
                               .arg(c.name, view)
                               .arg(screen.width())
                               .arg(screen.height())
                               .arg(clipped.join(QLatin1Char('\n')))));
            ++checked;
        }
        QVERIFY2(checked >= 5, "fewer pages than expected were shown");
    }

private:
    QTemporaryDir m_dir;
    QList<Case> m_cases;
};

QTEST_MAIN(TestWindowFit)
#include "test_window_fit.moc"

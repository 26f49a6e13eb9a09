// SPDX-License-Identifier: GPL-3.0-or-later
#include "AppOptions.h"

#include <QTest>

class TestAppOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaults()
    {
        AppOptions o;
        QString error;
        QVERIFY(parseAppOptions({ QStringLiteral("rdtscope") }, &o, &error));
        QCOMPARE(o.source, QStringLiteral("auto"));
        QVERIFY(o.scenario.isEmpty()); // not named: the engine runs noisy-neighbour on a simulated source
        QVERIFY(o.view.isEmpty());
        QVERIFY(o.screenshot.isEmpty());
    }

    void everyOption()
    {
        AppOptions o;
        QString error;
        QVERIFY(parseAppOptions(
            { QStringLiteral("rdtscope"), QStringLiteral("--source"), QStringLiteral("sim-msr"),
                QStringLiteral("--scenario"), QStringLiteral("cdp"), QStringLiteral("--view"), QStringLiteral("TMA"),
                QStringLiteral("--cpuid-dump"), QStringLiteral("/x.txt"), QStringLiteral("--screenshot"),
                QStringLiteral("/tmp/a.png"), QStringLiteral("--after"), QStringLiteral("0.5") },
            &o, &error));
        QCOMPARE(o.source, QStringLiteral("sim-msr"));
        QCOMPARE(o.scenario, QStringLiteral("cdp"));
        QCOMPARE(o.view, QStringLiteral("tma"));
        QCOMPARE(o.cpuidDump, QStringLiteral("/x.txt"));
        QCOMPARE(o.screenshot, QStringLiteral("/tmp/a.png"));
        QCOMPARE(o.afterSeconds, 0.5);
        QVERIFY(o.warnings.isEmpty());
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown view") << QStringList { QStringLiteral("--view"), QStringLiteral("flamegraph") }
                                      << QStringLiteral("unknown view");
        QTest::newRow("bad after") << QStringList { QStringLiteral("--screenshot"), QStringLiteral("a.png"),
            QStringLiteral("--after"), QStringLiteral("soon") }
                                   << QStringLiteral("--after");
        QTest::newRow("negative after") << QStringList { QStringLiteral("--after"), QStringLiteral("-1") }
                                        << QStringLiteral("--after");
        QTest::newRow("nan after") << QStringList { QStringLiteral("--screenshot"), QStringLiteral("a.png"),
            QStringLiteral("--after"), QStringLiteral("nan") }
                                   << QStringLiteral("--after");
        QTest::newRow("inf after") << QStringList { QStringLiteral("--after"), QStringLiteral("inf") }
                                   << QStringLiteral("--after");
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--frobnicate") }
                                        << QStringLiteral("frobnicate");
        QTest::newRow("positional") << QStringList { QStringLiteral("file.rdts") } << QStringLiteral("unexpected");
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        AppOptions o;
        QString error;
        args.prepend(QStringLiteral("rdtscope"));
        QVERIFY(!parseAppOptions(args, &o, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void warnings()
    {
        AppOptions o;
        QString error;
        QVERIFY(parseAppOptions(
            { QStringLiteral("rdtscope"), QStringLiteral("--after"), QStringLiteral("3") }, &o, &error));
        QCOMPARE(o.warnings.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestAppOptions)
#include "test_app_options.moc"

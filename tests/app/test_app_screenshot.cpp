// SPDX-License-Identifier: GPL-3.0-or-later
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {
int runApp(const QStringList& args, QByteArray* err = nullptr, QByteArray* out = nullptr)
{
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RDTSCOPE_APP), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        return -1;
    }
    if (err) *err = p.readAllStandardError();
    if (out) *out = p.readAllStandardOutput();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}
} // namespace

class TestAppScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesPngOfWindowSize_data()
    {
        QTest::addColumn<QString>("view");
        QTest::newRow("default (dashboard or machine)") << QString();
        QTest::newRow("machine") << QStringLiteral("machine");
        QTest::newRow("tma (simulated PMU)") << QStringLiteral("tma");
        QTest::newRow("callgraph (simulated PMU)") << QStringLiteral("callgraph");
        QTest::newRow("latency (simulated PMU)") << QStringLiteral("latency");
        QTest::newRow("experiments") << QStringLiteral("experiments");
    }
    void writesPngOfWindowSize()
    {
        QFETCH(QString, view);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shot.png"));
        QStringList args { QStringLiteral("--screenshot"), path, QStringLiteral("--after"), QStringLiteral("1") };
        if (!view.isEmpty()) args << QStringLiteral("--view") << view;
        QByteArray err;
        QByteArray out;
        QCOMPARE(runApp(args, &err, &out), 0);
        const QImage image(path);
        QVERIFY2(!image.isNull(), err.constData());
        // The window asks for 1400x900 but a page may need a little more; the PNG is the window as reported.
        const auto m = QRegularExpression(QStringLiteral("wrote .* \\((\\d+)x(\\d+)\\)")).match(QString::fromUtf8(out));
        QVERIFY2(m.hasMatch(), out.constData());
        QCOMPARE(image.size(), QSize(m.captured(1).toInt(), m.captured(2).toInt()));
        QVERIFY(image.width() >= 1400 && image.height() >= 900);
        // Not a blank frame: a real window has many distinct colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        }
        QVERIFY(colours.size() > 20);
        // Qt's offscreen platform cannot propagate size hints; that line must not greet every start.
        QVERIFY2(!err.contains("propagateSizeHints"), err.constData());
    }

    void failedSourceExitsNonZeroWithTheReason()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shot.png"));
        QByteArray err;
        QCOMPARE(runApp({ QStringLiteral("--source"), QStringLiteral("resctrl:/nonexistent-rdtscope-tree"),
                            QStringLiteral("--screenshot"), path, QStringLiteral("--after"), QStringLiteral("5") },
                     &err),
            1);
        QVERIFY2(err.contains("/nonexistent-rdtscope-tree"), err.constData()); // the reason names the path
        QVERIFY2(err.contains("no screenshot written"), err.constData());
        QVERIFY(!QFile::exists(path));
        QByteArray err2;
        QCOMPARE(runApp({ QStringLiteral("--open"), dir.filePath(QStringLiteral("missing.rdts")),
                            QStringLiteral("--screenshot"), path, QStringLiteral("--after"), QStringLiteral("5") },
                     &err2),
            1);
        QVERIFY2(err2.contains("missing.rdts"), err2.constData());
    }

    void badUsageExitsTwo() { QCOMPARE(runApp({ QStringLiteral("--view"), QStringLiteral("nope") }), 2); }

    void unwritableScreenshotFails()
    {
        QByteArray err;
        QCOMPARE(runApp({ QStringLiteral("--screenshot"), QStringLiteral("/nonexistent-dir/x.png"),
                            QStringLiteral("--after"), QStringLiteral("0") },
                     &err),
            1);
        QVERIFY(err.contains("nonexistent-dir"));
    }
};

QTEST_GUILESS_MAIN(TestAppScreenshot)
#include "test_app_screenshot.moc"

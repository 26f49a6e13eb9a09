// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI connected to rdtscope-agent through a real OpenSSH server on 127.0.0.1 (tests/agent/sshd-sandbox,
// started and stopped here): the window names the host, samples arrive, a mask edited through the window's model
// changes the remote tree's schemata file and Undo changes it back; killing ssh shows the connection-lost banner
// with the data kept, and Reconnect opens the source again (issue #15 item 6); a live PMU capture of the PMU
// pages runs in the agent.
#include "../agent/AgentTestHelpers.h"
#include "../rdt/TestTree.h"
#include "AppOptions.h"
#include "MainWindow.h"
#include "models/AllocationModel.h"
#include "models/FramePump.h"
#include "models/MachineDescription.h"
#include "models/PmuSession.h"
#include "models/TimeSeriesStore.h"
#include "views/PmuPages.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {
QByteArray schemata(const rdt::test::TempTree& tree, const char* group)
{
    return QByteArray::fromStdString(tree.read(std::string(group) + "/schemata"));
}
/// ssh processes this test process started (the client under the connected engine).
std::vector<pid_t> sshChildren()
{
    std::vector<pid_t> out;
    for (pid_t p : rdt::test::childrenOf(::getpid())) {
        char exe[256] = {};
        const auto n = ::readlink(("/proc/" + std::to_string(p) + "/exe").c_str(), exe, sizeof exe - 1);
        if (n > 0 && std::string(exe, static_cast<std::size_t>(n)).ends_with("/ssh")) out.push_back(p);
    }
    return out;
}
/// A TCP listener on 127.0.0.1 that never accepts and never speaks: a host whose sshd hangs before its banner.
struct SilentListener {
    int fd = -1;
    int port = 0;
    SilentListener()
    {
        fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), len) != 0 || ::listen(fd, 4) != 0
            || ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
            return;
        port = ntohs(a.sin_port);
    }
    bool hasPendingConnection() const
    {
        pollfd p { fd, POLLIN, 0 };
        return ::poll(&p, 1, 0) == 1;
    }
    /// Takes every waiting connection and closes it, then stops listening: ssh sees the host hang up.
    void hangUp()
    {
        while (hasPendingConnection()) {
            const int c = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (c < 0) break;
            ::close(c);
        }
        ::close(fd);
        fd = -1;
    }
    ~SilentListener()
    {
        if (fd >= 0) ::close(fd);
    }
};
} // namespace

class TestGuiOverSsh : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("rdtscope-test-gui-ssh"));
        QSettings().clear();
        m_sandbox = std::make_unique<rdt::test::SshSandbox>();
        QVERIFY2(m_sandbox->ok(), m_sandbox->startOutput.c_str());
        qputenv("RDTSCOPE_SSH_COMMAND", QByteArray::fromStdString(m_sandbox->sshCommand));
    }
    void cleanupTestCase()
    {
        QSettings().clear();
        m_sandbox.reset();
    }

    void editsTheRemoteTreeAndSurvivesALostConnection()
    {
        rdt::test::TempTree tree("resctrl.full");
        AppOptions options;
        options.connect = QStringLiteral("ssh://root@127.0.0.1:%1").arg(m_sandbox->port);
        options.source = QStringLiteral("resctrl:") + QString::fromStdString(tree.root());
        MainWindow window;
        window.setStartOptions(options);
        auto host = describeMachine();
        QVERIFY(host.ok());
        window.setMachine(*host);
        QVERIFY(!window.machineSummary().contains(QStringLiteral("the agent's machine")));
        QSignalSpy connected(&window, &MainWindow::connectFinished);
        window.connectTo(options);
        QVERIFY(connected.wait(60000));
        QVERIFY2(connected.at(0).at(0).toBool(), qPrintable(connected.at(0).at(1).toString()));
        QVERIFY2(window.windowTitle().contains(QStringLiteral("on the agent on root@127.0.0.1")),
            qPrintable(window.windowTitle()));
        // The Machine page describes the agent's machine, as the agent describes it, not the GUI's host.
        QVERIFY2(window.machineSummary().contains(QStringLiteral("(the agent's machine)")),
            qPrintable(window.machineSummary()));
        QCOMPARE(MainWindow::recentConnections().value(0), options.connect);

        // Samples of the remote tree arrive in the frame pump.
        QTRY_VERIFY_WITH_TIMEOUT(window.pump()->store().groupCount() > 0, 20000);

        // A mask edit through the window's model is written on the "server"; Undo writes the old mask back.
        AllocationModel* model = window.allocationModel();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowFor(QStringLiteral("Guaranteed"), QStringLiteral("L3")) >= 0, 10000);
        const int row = model->rowFor(QStringLiteral("Guaranteed"), QStringLiteral("L3"));
        const QByteArray before = schemata(tree, "Guaranteed");
        QVERIFY(before.contains("L3:0=fffff"));
        model->setApplyLive(true);
        QVERIFY(model->setPendingMask(row, 0xff));
        QVERIFY2(schemata(tree, "Guaranteed").contains("L3:0=ff;"), schemata(tree, "Guaranteed").constData());
        window.undoStack()->undo();
        QCOMPARE(schemata(tree, "Guaranteed"), before);

        // The link breaks: a banner says so, the data shown stays, the tree is as it was.
        const auto groupsShown = window.pump()->store().groupCount();
        const auto ssh = sshChildren();
        QVERIFY2(!ssh.empty(), "no ssh child process found");
        for (pid_t p : ssh)
            ::kill(p, SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(!window.connectionBannerText().isEmpty(), 20000);
        // In words: the link broke and how, not the stream's raw error or the agent's last (unrelated) log line.
        const QString banner = window.connectionBannerText();
        QVERIFY2(
            banner.startsWith(QStringLiteral("Connection lost: the ssh link to root@127.0.0.1:")), qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("broke: ssh was ended by signal 9 (SIGKILL)")), qPrintable(banner));
        QVERIFY2(!banner.contains(QStringLiteral("last log line")), qPrintable(banner));
        QCOMPARE(window.pump()->store().groupCount(), groupsShown);
        QCOMPARE(schemata(tree, "Guaranteed"), before);

        // Reconnect (the banner's button) opens the same source again and the banner goes.
        connected.clear();
        auto* reconnect = window.findChild<QObject*>(QStringLiteral("connectionBanner"));
        QVERIFY(reconnect);
        QMetaObject::invokeMethod(reconnect, "reconnectRequested");
        QVERIFY(connected.wait(60000));
        QVERIFY2(connected.at(0).at(0).toBool(), qPrintable(connected.at(0).at(1).toString()));
        QVERIFY(window.connectionBannerText().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(window.pump()->store().groupCount() > 0, 20000);
    }

    void livePmuCaptureRunsOnTheAgent()
    {
        // Connected, the PMU pages' live capture runs in the agent behind sshd (its own connection, opened on the
        // first capture): a cpu-clock capture of a launched program (no hardware PMU needed), named over there.
        AppOptions options;
        options.connect = QStringLiteral("ssh://root@127.0.0.1:%1").arg(m_sandbox->port);
        options.source = QStringLiteral("sim");
        MainWindow window;
        window.setRememberRecentFiles(false);
        QSignalSpy connected(&window, &MainWindow::connectFinished);
        QSignalSpy pmuConnected(&window, &MainWindow::pmuConnectFinished);
        window.connectTo(options);
        QVERIFY(connected.wait(60000));
        QVERIFY2(connected.at(0).at(0).toBool(), qPrintable(connected.at(0).at(1).toString()));
        // The PMU pages' connection opens in the background after the source's.
        QVERIFY(!pmuConnected.isEmpty() || pmuConnected.wait(60000));
        QVERIFY2(pmuConnected.at(0).at(0).toBool(), qPrintable(pmuConnected.at(0).at(1).toString()));
        PmuSession* session = window.pmuPages()->session();
        rdt::pmu::PerfTarget target;
        target.command = { PMU_LIVE_TARGET, "0.5" };
        QString error;
        if (!session->startLive(rdt::pmu::PmuRecipeKind::CpuClock, target, 1000000, &error))
            QSKIP(qPrintable(QStringLiteral("perf_event_open refused on the agent: ") + error));
        QVERIFY2(session->data().name.find("on the agent on root@127.0.0.1") != std::string::npos,
            session->data().name.c_str());
        for (int i = 0; i < 400 && session->simulating(); ++i) {
            QTest::qWait(25);
            session->waitForAggregation();
            session->stepSimulation();
        }
        session->waitForAggregation();
        QVERIFY(!session->simulating()); // the launched command exited on the agent's side
        QVERIFY(session->data().otherSamples > 0);
        std::string seen = "lost " + std::to_string(session->data().lost) + "; "; // for the failure message
        for (const auto& [name, n] : session->data().otherFunctions)
            seen += name + " " + std::to_string(n) + "; ";
        // Once failed on loaded machines with every sample "[unknown] 0x...": the exec's MMAP2 sat in another CPU's
        // ring than the first samples and the first (unknown) name of each address was never resent
        // (tests/pmu/engine_ring_order.cpp). The message lists what was named instead.
        QVERIFY2(session->data().otherFunctions.count("rdtscope_live_inner"), seen.c_str());
    }

    void aSilentHostNeverBlocksTheWindow()
    {
        // A host that accepts the TCP connection and never says a word (ssh waits for its banner): the PMU pages'
        // connection opens off the GUI thread, the window keeps running, and a capture meanwhile is refused with
        // the reason instead of waiting.
        SilentListener silent; // never accepts: the kernel completes ssh's TCP handshake from its backlog
        QVERIFY(silent.port > 0);
        AppOptions options;
        options.connect = QStringLiteral("ssh://root@127.0.0.1:%1").arg(silent.port);
        options.source = QStringLiteral("sim");
        MainWindow window;
        window.setRememberRecentFiles(false);
        QSignalSpy pmuConnected(&window, &MainWindow::pmuConnectFinished);
        QElapsedTimer clock;
        clock.start();
        window.usePmuEngineAt(options);
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(20);
        QTRY_VERIFY_WITH_TIMEOUT(silent.hasPendingConnection(), 20000); // ssh is connected and waits for the banner
        QTest::qWait(400);
        QVERIFY(pmuConnected.isEmpty());
        QVERIFY2(ticks >= 10, qPrintable(QString::number(ticks))); // the event loop ran meanwhile
        PmuSession* session = window.pmuPages()->session();
        rdt::pmu::PerfTarget target;
        target.systemWide = true;
        QString error;
        QVERIFY(!session->startLive(rdt::pmu::PmuRecipeKind::CpuClock, target, 250, &error));
        QVERIFY2(error.contains(QStringLiteral("still opening")), qPrintable(error));

        // The host hangs up: the reason reaches the window, and the next capture says it.
        silent.hangUp();
        QVERIFY(pmuConnected.wait(60000));
        QVERIFY(!pmuConnected.at(0).at(0).toBool());
        error.clear();
        QVERIFY(!session->startLive(rdt::pmu::PmuRecipeKind::CpuClock, target, 250, &error));
        QVERIFY2(error.contains(QStringLiteral("File > Connect")), qPrintable(error));
        QVERIFY2(!error.contains(QStringLiteral("still opening")), qPrintable(error));
    }

    void aWrongHostSaysWhy()
    {
        AppOptions options;
        options.connect = QStringLiteral("ssh://nosuchuser@127.0.0.1:%1").arg(m_sandbox->port);
        options.source = QStringLiteral("sim");
        MainWindow window;
        QSignalSpy connected(&window, &MainWindow::connectFinished);
        window.connectTo(options);
        QVERIFY(connected.wait(60000));
        QVERIFY(!connected.at(0).at(0).toBool());
        QVERIFY2(connected.at(0).at(1).toString().contains(QStringLiteral("ssh")),
            qPrintable(connected.at(0).at(1).toString()));
        QVERIFY(!MainWindow::recentConnections().contains(options.connect));
    }

private:
    std::unique_ptr<rdt::test::SshSandbox> m_sandbox;
};

QTEST_MAIN(TestGuiOverSsh)
#include "test_gui_over_ssh.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Connected sources: --connect, File > Connect... with recent hosts, the connection-lost banner and Reconnect.
#include "ConnectionBanner.h"
#include "MainWindow.h"
#include "SourceFactory.h"

#include "models/PmuSession.h"
#include "views/PmuPages.h"

#include "protocol/AgentUrl.h"

#include <QInputDialog>
#include <QSettings>
#include <QStatusBar>

namespace {
constexpr int kRecentConnections = 8;
const char* const kRecentKey = "connect/recent";
}

QStringList MainWindow::recentConnections()
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::rememberConnection(const QString& url)
{
    QStringList recent = recentConnections();
    recent.removeAll(url);
    recent.prepend(url);
    while (recent.size() > kRecentConnections)
        recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
}

QString MainWindow::connectionBannerText() const
{
    return m_connectionBanner ? m_connectionBanner->text() : QString();
}

void MainWindow::connectTo(const AppOptions& options)
{
    statusBar()->showMessage(tr("Connecting to %1\u2026").arg(options.connect));
    // ssh may take seconds (or ask for nothing and time out): never on the GUI thread.
    m_jobs.startJob([options] { return std::make_shared<rdt::Result<SourceBundle>>(openConnectedSource(options)); },
        [this, options](std::shared_ptr<rdt::Result<SourceBundle>> result) {
            if (!result->ok()) {
                const QString why = QString::fromStdString(result->error().toString());
                statusBar()->showMessage(tr("Cannot connect: %1").arg(why), 15000);
                Q_EMIT connectFinished(false, why);
                return;
            }
            setSource(std::move(result->value()));
            m_connectedOptions = options;
            usePmuEngineAt(options);
            m_connectionBanner->hide();
            rememberConnection(options.connect);
            showView(QStringLiteral("rdt"));
            statusBar()->clearMessage();
            Q_EMIT connectFinished(true, options.connect);
        });
}

void MainWindow::usePmuEngineAt(const AppOptions& options)
{
    using EngineResult = rdt::Result<std::shared_ptr<rdt::engine::Engine>>;
    const std::string url = options.connect.toStdString();
    // Until the connection is open a capture is refused, not waited for: ssh may take seconds or time out.
    m_pmu->session()->setEngineFactory([url]() -> EngineResult {
        return rdt::makeError("the PMU connection to the agent at " + url + " is still opening",
            "try again in a moment; the status bar says when it is open");
    });
    m_pmuConnectJobs.startJob([options] { return std::make_shared<EngineResult>(openConnectedPmuEngine(options)); },
        [this, url](std::shared_ptr<EngineResult> result) {
            if (result->ok()) {
                m_pmu->session()->setEngine(std::move(result->value()));
                statusBar()->showMessage(
                    tr("PMU pages: captures run on the agent at %1").arg(QString::fromStdString(url)), 5000);
                Q_EMIT pmuConnectFinished(true, QString::fromStdString(url));
                return;
            }
            rdt::Error failed = result->error();
            failed.advice += (failed.advice.empty() ? "" : "; ") + std::string("File > Connect... opens it again");
            m_pmu->session()->setEngineFactory([failed]() -> EngineResult { return failed; });
            const QString why = QString::fromStdString(failed.toString());
            statusBar()->showMessage(tr("PMU pages: cannot reach the agent: %1").arg(why), 15000);
            Q_EMIT pmuConnectFinished(false, why);
        });
}

void MainWindow::showConnectDialog()
{
    QStringList recent = recentConnections();
    if (recent.isEmpty()) recent << QStringLiteral("ssh://root@") << QStringLiteral("local");
    bool ok = false;
    const QString url = QInputDialog::getItem(this, tr("Connect to an agent"),
        tr("rdtscope-agent at (ssh://[USER@]HOST[:PORT], unix:PATH, or local for this machine through pkexec).\n"
           "The source (%1) runs there; the GUI stays unprivileged.")
            .arg(m_startOptions.source),
        recent, 0, /*editable=*/true, &ok)
                            .trimmed();
    if (!ok || url.isEmpty()) return;
    if (auto parsed = rdt::protocol::parseAgentUrl(url.toStdString()); !parsed) {
        statusBar()->showMessage(
            tr("Not an agent address: %1").arg(QString::fromStdString(parsed.error().toString())), 10000);
        return;
    }
    AppOptions options = m_startOptions;
    options.openFile.clear();
    options.connect = url;
    if (url != m_startOptions.connect) options.agentPath.clear(); // --agent named the path on another host
    connectTo(options);
}

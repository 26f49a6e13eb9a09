// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuAgentConnection.h"
#include "SourceFactory.h"

#include "models/PmuSession.h"

PmuAgentConnection::PmuAgentConnection(PmuSession* session, QObject* parent)
    : QObject(parent)
    , m_session(session)
{ }

void PmuAgentConnection::open(const AppOptions& options)
{
    using EngineResult = rdt::Result<std::shared_ptr<rdt::engine::Engine>>;
    const std::string url = options.connect.toStdString();
    // Until the connection is open a capture is refused, not waited for: ssh may take seconds or time out.
    m_session->setEngineFactory([url]() -> EngineResult {
        return rdt::makeError("the PMU connection to the agent at " + url + " is still opening",
            "try again in a moment; the status bar says when it is open");
    });
    m_jobs.startJob([options] { return std::make_shared<EngineResult>(openConnectedPmuEngine(options)); },
        [this, url](std::shared_ptr<EngineResult> result) {
            if (result->ok()) {
                m_session->setEngine(std::move(result->value()));
                Q_EMIT finished(true, QString::fromStdString(url));
                return;
            }
            rdt::Error failed = result->error();
            failed.advice += (failed.advice.empty() ? "" : "; ") + std::string("File > Connect... opens it again");
            m_session->setEngineFactory([failed]() -> EngineResult { return failed; });
            Q_EMIT finished(false, QString::fromStdString(failed.toString()));
        });
}

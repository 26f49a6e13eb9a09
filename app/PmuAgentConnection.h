// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AppOptions.h"

#include "models/JobTracker.h"

#include <QObject>

class PmuSession;

/// The PMU pages' own connection to an agent (--connect, File > Connect...): live PMU captures run on the agent's
/// engine. It opens in the background (ssh may take seconds, never on the GUI thread); until it is open a capture is
/// refused with the reason, and a failed connection leaves the reason (and how to retry) as the session's answer.
/// A newer connection makes an older one stale; it is independent of the RDT source's connection, so opening a
/// session does not cancel it.
class PmuAgentConnection : public QObject {
    Q_OBJECT
public:
    PmuAgentConnection(PmuSession* session, QObject* parent);

    void open(const AppOptions& options);

Q_SIGNALS:
    void finished(bool ok, const QString& message);

private:
    PmuSession* m_session;
    JobTracker m_jobs { this };
};

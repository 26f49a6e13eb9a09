// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A one-line banner at the top of each PMU page: "Re-aggregating..." while a range or filter change is being
// computed on the worker (PmuSession::aggregatingChanged), and the session's timeline note (why the shared
// timeline's range does not apply to this data). Hidden when there is nothing to say.

#include <QLabel>

class PmuSession;

class PmuStatusBanner : public QLabel {
    Q_OBJECT
public:
    explicit PmuStatusBanner(PmuSession* session, QWidget* parent = nullptr);

private:
    void refreshText();

    PmuSession* m_session;
    bool m_busy = false;
};

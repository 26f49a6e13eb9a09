// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuStatusBanner.h"

#include "models/PmuSession.h"

PmuStatusBanner::PmuStatusBanner(PmuSession* session, QWidget* parent)
    : QLabel(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("pmuStatusBanner"));
    setWordWrap(true);
    setMargin(4);
    setStyleSheet(QStringLiteral("QLabel#pmuStatusBanner { background: palette(alternate-base); "
                                 "border: 1px solid palette(mid); border-radius: 3px; }"));
    connect(m_session, &PmuSession::aggregatingChanged, this, [this](bool busy) {
        m_busy = busy;
        refreshText();
    });
    connect(m_session, &PmuSession::timelineNoteChanged, this, &PmuStatusBanner::refreshText);
    refreshText();
}

void PmuStatusBanner::refreshText()
{
    QStringList lines;
    if (m_busy)
        lines << tr("Re-aggregating the PMU views for the new range or filter\u2026 (they show the previous result "
                    "until it is done)");
    if (!m_session->timelineNote().isEmpty()) lines << m_session->timelineNote();
    setText(lines.join(QLatin1Char('\n')));
    setVisible(!lines.isEmpty());
}

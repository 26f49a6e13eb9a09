// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

/// The bar above the RDT dashboard that says a connected source is gone (its agent exited, the ssh link broke):
/// what is shown stays, nothing more arrives, and Reconnect opens the same source again.
class ConnectionBanner : public QFrame {
    Q_OBJECT
public:
    explicit ConnectionBanner(QWidget* parent = nullptr);
    /// `where` names the agent ("the agent on root@srv"), `reason` the error with its advice.
    void showLost(const QString& where, const QString& reason);
    QString text() const;

Q_SIGNALS:
    void reconnectRequested();

private:
    QLabel* m_text;
    QPushButton* m_reconnect;
};

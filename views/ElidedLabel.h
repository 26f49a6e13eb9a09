// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

/// A one-line label that shows its text cut after its last whole clause that fits (" \u2014 ", "; ", " (", ", ")
/// when it is wider than the label, elided at the right only when not even the first clause fits, with the whole text
/// as its tooltip, and that never asks its layout for more width than it is given (a long status text does not run
/// under the status bar's permanent widgets). fullText() is the text as set.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    void setFullText(const QString& text);
    const QString& fullText() const { return m_full; }
    QSize minimumSizeHint() const override;
    /// `text` as shown in `room` pixels: whole, or its longest run of whole clauses followed by " \u2026".
    static QString shortenAtClause(const QString& text, const QFontMetrics& metrics, int room);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();
    QString m_full;
};

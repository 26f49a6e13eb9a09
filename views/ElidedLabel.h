// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

/// A one-line label that shows its text elided at the right when it is wider than the label, with the whole text
/// as its tooltip, and that never asks its layout for more width than it is given (a long status text does not run
/// under the status bar's permanent widgets). fullText() is the text as set.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    void setFullText(const QString& text);
    const QString& fullText() const { return m_full; }
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();
    QString m_full;
};

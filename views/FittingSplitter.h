// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A splitter that puts its widgets side by side when their minimum widths fit and one above the other when they
// do not, so a page on a 1280-pixel screen stacks the heatmap over the MB table instead of scrolling sideways
// (issue #47: "at 1280x720 every page is usable"). Its minimum width is its widest child's, never their sum.

#include <QSplitter>

class FittingSplitter : public QSplitter {
    Q_OBJECT
public:
    explicit FittingSplitter(QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The width the children need side by side (their minimum widths and the handles between them).
    int sideBySideWidth() const;
    void fitOrientation();
    bool m_fitting = false;
};

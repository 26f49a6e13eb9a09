// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class ReplayControl;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

/// Play / pause / speed / seek for a replayed session. Hidden unless a ReplayControl is set.
class ReplayBar : public QWidget {
    Q_OBJECT
public:
    explicit ReplayBar(QWidget* parent = nullptr);

    /// Not owned; nullptr hides the bar.
    void setControl(ReplayControl* control);
    ReplayControl* control() const { return m_control; }
    /// Moves the slider and time label to the control's position (the frame pump calls it once per frame).
    void syncPosition();

Q_SIGNALS:
    /// The user moved to another time: views drop their series and re-read from there.
    void seeked(quint64 positionNs);

private:
    static QString formatTime(std::uint64_t ns);

    ReplayControl* m_control = nullptr;
    QToolButton* m_play;
    QComboBox* m_speed;
    QSlider* m_slider;
    QLabel* m_time;
};

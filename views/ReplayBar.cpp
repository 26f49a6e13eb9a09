// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReplayBar.h"

#include "models/ReplayControl.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

namespace {
constexpr int kSliderSteps = 10000;
}

ReplayBar::ReplayBar(QWidget* parent)
    : QWidget(parent)
    , m_play(new QToolButton(this))
    , m_speed(new QComboBox(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_time(new QLabel(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    auto* label = new QLabel(tr("Replay:"), this);
    layout->addWidget(label);
    m_play->setCheckable(true);
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_play->setToolTip(tr("Play / pause the recording"));
    layout->addWidget(m_play);
    for (double s : { 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0 })
        m_speed->addItem(QStringLiteral("%1\u00d7").arg(s), s);
    m_speed->setCurrentIndex(2);
    m_speed->setToolTip(tr("Playback speed"));
    layout->addWidget(m_speed);
    m_slider->setRange(0, kSliderSteps);
    m_slider->setToolTip(tr("Seek: the heatmap shows the allocation recorded at that time"));
    layout->addWidget(m_slider, 1);
    m_time->setMinimumWidth(m_time->fontMetrics().horizontalAdvance(QStringLiteral("00:00:00 / 00:00:00")));
    layout->addWidget(m_time);

    connect(m_play, &QToolButton::toggled, this, [this](bool on) {
        m_play->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
        if (m_control) m_control->setPlaying(on);
    });
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_control) m_control->setSpeed(m_speed->itemData(i).toDouble());
    });
    connect(m_slider, &QSlider::sliderReleased, this, [this] {
        if (!m_control) return;
        const auto pos = static_cast<std::uint64_t>(
            static_cast<double>(m_control->durationNs()) * m_slider->value() / kSliderSteps);
        m_control->seek(pos);
        Q_EMIT seeked(pos);
        syncPosition();
    });
    setControl(nullptr);
}

void ReplayBar::setControl(ReplayControl* control)
{
    m_control = control;
    setVisible(control != nullptr);
    if (control) {
        m_play->setChecked(control->playing());
        syncPosition();
    }
}

QString ReplayBar::formatTime(std::uint64_t ns)
{
    const auto s = ns / 1'000'000'000ULL;
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600, 2, 10, QLatin1Char('0'))
        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

void ReplayBar::syncPosition()
{
    if (!m_control) return;
    const auto duration = m_control->durationNs();
    const auto position = std::min(m_control->positionNs(), duration);
    if (!m_slider->isSliderDown() && duration > 0)
        m_slider->setValue(
            static_cast<int>(static_cast<double>(position) / static_cast<double>(duration) * kSliderSteps));
    m_time->setText(formatTime(position) + QStringLiteral(" / ") + formatTime(duration));
    if (m_play->isChecked() != m_control->playing()) m_play->setChecked(m_control->playing());
}

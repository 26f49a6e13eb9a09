// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineToolbar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QMenu>
#include <QToolButton>

TimelineToolbar::TimelineToolbar(const std::array<bool, kMetricCount>& metricsShown, QWidget* parent)
    : QWidget(parent)
{
    auto* bar = new QHBoxLayout(this);
    bar->setContentsMargins(4, 2, 4, 0);
    m_followBox = new QCheckBox(tr("Follow"), this);
    m_followBox->setChecked(true);
    m_followBox->setToolTip(tr("Keep the newest data in view; zooming or panning pauses following"));
    connect(m_followBox, &QCheckBox::toggled, this, &TimelineToolbar::followToggled);
    bar->addWidget(m_followBox);

    m_windowBox = new QComboBox(this);
    for (const auto& [label, seconds] : { std::pair { tr("1 min"), 60 }, std::pair { tr("5 min"), 300 },
             std::pair { tr("15 min"), 900 }, std::pair { tr("1 h"), 3600 } })
        m_windowBox->addItem(label, seconds);
    m_windowBox->setCurrentIndex(1);
    m_windowBox->setToolTip(tr("Time window shown while following"));
    m_windowBox->setAccessibleName(tr("Time window"));
    connect(m_windowBox, &QComboBox::currentIndexChanged, this,
        [this](int i) { Q_EMIT windowChosen(m_windowBox->itemData(i).toDouble()); });
    bar->addWidget(m_windowBox);
    bar->addSpacing(12);

    const QString names[kMetricCount] = { tr("Occupancy"), tr("Total BW"), tr("Local BW"), tr("Remote BW") };
    for (int m = 0; m < kMetricCount; ++m) {
        auto* box = new QCheckBox(names[m], this);
        box->setChecked(metricsShown[static_cast<std::size_t>(m)]);
        connect(
            box, &QCheckBox::toggled, this, [this, m](bool on) { Q_EMIT metricToggled(static_cast<Metric>(m), on); });
        if (m == kMetricCount - 1) box->setToolTip(tr("Remote memory bandwidth: total minus local MBM"));
        m_metricBoxes[static_cast<std::size_t>(m)] = box;
        bar->addWidget(box);
    }
    bar->addStretch(1);
    m_clearRangeButton = new QToolButton(this);
    m_clearRangeButton->setText(tr("Clear range"));
    m_clearRangeButton->setToolTip(tr("Clear the selected time range (Esc or a double-click on the plot also clear "
                                      "it); the PMU views show the whole run again"));
    m_clearRangeButton->setVisible(false);
    connect(m_clearRangeButton, &QToolButton::clicked, this, &TimelineToolbar::clearRangeClicked);
    bar->addWidget(m_clearRangeButton);

    m_exportButton = new QToolButton(this);
    m_exportButton->setText(tr("Export"));
    m_exportButton->setToolTip(tr("Export the visible range as PNG, SVG or CSV"));
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_exportButton);
    struct Kind {
        QString label;
        QString filter;
        ExportFormat format;
    };
    const Kind kinds[] = { { tr("PNG image\u2026"), tr("PNG image (*.png)"), ExportFormat::Png },
        { tr("SVG drawing\u2026"), tr("SVG drawing (*.svg)"), ExportFormat::Svg },
        { tr("CSV data\u2026"), tr("CSV (*.csv)"), ExportFormat::Csv } };
    for (const auto& k : kinds) {
        menu->addAction(k.label, this, [this, k] {
            const QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), QString(), k.filter);
            if (!path.isEmpty()) Q_EMIT exportRequested(k.format, path);
        });
    }
    m_exportButton->setMenu(menu);
    bar->addWidget(m_exportButton);
}

void TimelineToolbar::setFollow(bool follow)
{
    m_followBox->setChecked(follow);
}

void TimelineToolbar::setWindowSeconds(double seconds)
{
    const int i = m_windowBox->findData(static_cast<int>(seconds));
    if (i >= 0 && i != m_windowBox->currentIndex()) m_windowBox->setCurrentIndex(i);
}

void TimelineToolbar::setMetricChecked(Metric metric, bool checked)
{
    if (auto* box = m_metricBoxes[static_cast<std::size_t>(metric)]; box->isChecked() != checked)
        box->setChecked(checked);
}

void TimelineToolbar::setClearRangeVisible(bool visible)
{
    m_clearRangeButton->setVisible(visible);
}

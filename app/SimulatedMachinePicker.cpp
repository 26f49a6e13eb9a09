// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimulatedMachinePicker.h"

#include "engine/SimulatedCatalogue.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>

namespace {
void fill(QComboBox* box, const std::vector<rdt::engine::SimulatedChoice>& choices, const QString& selected,
    bool selectDefault)
{
    for (const auto& c : choices) {
        const QString id = QString::fromStdString(c.id);
        box->addItem(id + QStringLiteral(" \u2014 ") + QString::fromStdString(c.title), id);
        const int row = box->count() - 1;
        box->setItemData(row, QString::fromStdString(c.title), Qt::ToolTipRole);
        if (selected.isEmpty() ? selectDefault && c.isDefault : selected == id) box->setCurrentIndex(row);
    }
}
} // namespace

SimulatedMachinePicker::SimulatedMachinePicker(const QString& preset, const QString& scenario, QWidget* parent)
    : QWidget(parent)
    , m_preset(new QComboBox(this))
    , m_scenario(new QComboBox(this))
    , m_description(new QLabel(this))
{
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    m_preset->setObjectName(QStringLiteral("preset"));
    m_scenario->setObjectName(QStringLiteral("scenario"));
    // Long titles must not widen a dialog or page past a small screen: the boxes elide, the tooltips say it all.
    for (QComboBox* box : { m_preset, m_scenario }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(32);
    }
    // No preset named: the scenario's own CPU (an EPYC scenario runs on its EPYC), as on the command line.
    m_preset->addItem(tr("the scenario's own CPU"), QString());
    m_preset->setItemData(0, tr("the CPU the scenario names"), Qt::ToolTipRole);
    fill(m_preset, rdt::engine::simulatedPresets(), preset, /*selectDefault=*/false);
    fill(m_scenario, rdt::engine::simulatedScenarios(), scenario, /*selectDefault=*/true);
    form->addRow(tr("CPU preset:"), m_preset);
    form->addRow(tr("Scenario:"), m_scenario);
    m_description->setWordWrap(true);
    m_description->setObjectName(QStringLiteral("description"));
    form->addRow(m_description);
    for (QComboBox* box : { m_preset, m_scenario }) {
        connect(box, &QComboBox::activated, this, &SimulatedMachinePicker::activated);
        connect(box, &QComboBox::currentIndexChanged, this, &SimulatedMachinePicker::updateDescription);
    }
    updateDescription();
}

QString SimulatedMachinePicker::preset() const
{
    return m_preset->currentData().toString();
}

QString SimulatedMachinePicker::scenario() const
{
    return m_scenario->currentData().toString();
}

void SimulatedMachinePicker::updateDescription()
{
    m_description->setText(tr("Simulated: %1, running \u201c%2\u201d")
                               .arg(m_preset->currentData(Qt::ToolTipRole).toString(),
                                   m_scenario->currentData(Qt::ToolTipRole).toString()));
}

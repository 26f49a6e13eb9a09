// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceSwitchDialog.h"

#include "engine/SimulatedCatalogue.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace {
enum Kind { Simulated = 0, ThisMachine = 1, ResctrlTree = 2 };

void fill(QComboBox* box, const std::vector<rdt::engine::SimulatedChoice>& choices, const QString& selected)
{
    for (const auto& c : choices) {
        box->addItem(QString::fromStdString(c.id) + QStringLiteral(" \u2014 ") + QString::fromStdString(c.title),
            QString::fromStdString(c.id));
        const int row = box->count() - 1;
        box->setItemData(row, QString::fromStdString(c.title), Qt::ToolTipRole);
        if (selected.isEmpty() ? c.isDefault : selected == QString::fromStdString(c.id)) box->setCurrentIndex(row);
    }
}
} // namespace

SourceSwitchDialog::SourceSwitchDialog(const AppOptions& current, QWidget* parent)
    : QDialog(parent)
    , m_base(current)
    , m_kind(new QButtonGroup(this))
    , m_preset(new QComboBox(this))
    , m_scenario(new QComboBox(this))
    , m_description(new QLabel(this))
    , m_treePath(new QLineEdit(this))
{
    setWindowTitle(tr("Switch source"));
    setObjectName(QStringLiteral("sourceSwitchDialog"));
    auto* layout = new QVBoxLayout(this);

    auto* simulated = new QRadioButton(tr("A &simulated machine (labelled simulated everywhere)"), this);
    simulated->setObjectName(QStringLiteral("kind.sim"));
    m_kind->addButton(simulated, Simulated);
    layout->addWidget(simulated);
    auto* simForm = new QFormLayout;
    simForm->setContentsMargins(24, 0, 0, 0);
    m_preset->setObjectName(QStringLiteral("preset"));
    m_scenario->setObjectName(QStringLiteral("scenario"));
    // Long titles must not widen the dialog past a small screen: the combo boxes elide, the tooltips say it all.
    for (QComboBox* box : { m_preset, m_scenario }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(40);
    }
    // No preset named: the scenario's own CPU (an EPYC scenario runs on its EPYC), as on the command line.
    m_preset->addItem(tr("the scenario's own CPU"), QString());
    m_preset->setItemData(0, tr("The CPU the scenario names"), Qt::ToolTipRole);
    auto presets = rdt::engine::simulatedPresets();
    for (auto& p : presets)
        p.isDefault = false;
    fill(m_preset, presets, current.preset.isEmpty() ? QStringLiteral("\n") : current.preset);
    fill(m_scenario, rdt::engine::simulatedScenarios(), current.scenario);
    simForm->addRow(tr("CPU preset:"), m_preset);
    simForm->addRow(tr("Scenario:"), m_scenario);
    m_description->setWordWrap(true);
    m_description->setObjectName(QStringLiteral("description"));
    simForm->addRow(m_description);
    layout->addLayout(simForm);

    auto* live = new QRadioButton(tr("&This machine, live (resctrl or the MSRs; says why not when it cannot)"), this);
    live->setObjectName(QStringLiteral("kind.live"));
    m_kind->addButton(live, ThisMachine);
    layout->addWidget(live);

    auto* tree = new QRadioButton(tr("A &resctrl tree: the mounted one, or a copy of one (a folder)"), this);
    tree->setObjectName(QStringLiteral("kind.tree"));
    m_kind->addButton(tree, ResctrlTree);
    layout->addWidget(tree);
    auto* treeRow = new QHBoxLayout;
    treeRow->setContentsMargins(24, 0, 0, 0);
    m_treePath->setObjectName(QStringLiteral("treePath"));
    m_treePath->setPlaceholderText(QStringLiteral("/sys/fs/resctrl"));
    treeRow->addWidget(m_treePath, 1);
    auto* browse = new QPushButton(tr("&Browse\u2026"), this);
    treeRow->addWidget(browse);
    layout->addLayout(treeRow);
    connect(browse, &QPushButton::clicked, this, [this, tree] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("A resctrl tree"), m_treePath->text());
        if (dir.isEmpty()) return;
        m_treePath->setText(dir);
        tree->setChecked(true);
    });
    connect(m_treePath, &QLineEdit::textEdited, tree, [tree] { tree->setChecked(true); });
    connect(m_preset, &QComboBox::activated, simulated, [simulated] { simulated->setChecked(true); });
    connect(m_scenario, &QComboBox::activated, simulated, [simulated] { simulated->setChecked(true); });
    connect(m_scenario, &QComboBox::currentIndexChanged, this, &SourceSwitchDialog::updateDescription);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &SourceSwitchDialog::updateDescription);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Switch"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    const QString source = current.source;
    if (source.startsWith(QLatin1String("resctrl:"))) {
        tree->setChecked(true);
        m_treePath->setText(source.mid(8));
    } else if (source == QLatin1String("resctrl")) {
        tree->setChecked(true);
    } else if (source.startsWith(QLatin1String("sim"))) {
        simulated->setChecked(true);
    } else {
        live->setChecked(true);
    }
    updateDescription();
}

void SourceSwitchDialog::updateDescription()
{
    m_description->setText(tr("%1 running \u201c%2\u201d")
                               .arg(m_preset->currentData(Qt::ToolTipRole).toString(),
                                   m_scenario->currentData(Qt::ToolTipRole).toString()));
}

AppOptions SourceSwitchDialog::chosen() const
{
    AppOptions options = m_base;
    options.openFile.clear();
    options.connect.clear();
    options.preset.clear();
    options.scenario.clear();
    switch (m_kind->checkedId()) {
    case Simulated:
        options.source = QStringLiteral("sim");
        options.preset = m_preset->currentData().toString();
        options.scenario = m_scenario->currentData().toString();
        break;
    case ResctrlTree: {
        const QString path = m_treePath->text().trimmed();
        options.source = path.isEmpty() ? QStringLiteral("resctrl") : QStringLiteral("resctrl:") + path;
        break;
    }
    default:
        options.source = QStringLiteral("auto");
        break;
    }
    return options;
}

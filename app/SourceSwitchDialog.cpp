// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceSwitchDialog.h"

#include "SimulatedMachinePicker.h"

#include "api/SourceSpec.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace {
enum Kind { Simulated = 0, ThisMachine = 1, ResctrlTree = 2 };
} // namespace

SourceSwitchDialog::SourceSwitchDialog(const AppOptions& current, QWidget* parent)
    : QDialog(parent)
    , m_base(current)
    , m_kind(new QButtonGroup(this))
    , m_machine(new SimulatedMachinePicker(current.preset, current.scenario, this))
    , m_treePath(new QLineEdit(this))
{
    setWindowTitle(tr("Switch source"));
    setObjectName(QStringLiteral("sourceSwitchDialog"));
    auto* layout = new QVBoxLayout(this);

    auto* simulated = new QRadioButton(tr("A &simulated machine (labelled simulated everywhere)"), this);
    simulated->setObjectName(QStringLiteral("kind.sim"));
    m_kind->addButton(simulated, Simulated);
    layout->addWidget(simulated);
    m_machine->setContentsMargins(24, 0, 0, 0);
    layout->addWidget(m_machine);

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
    connect(m_machine, &SimulatedMachinePicker::activated, simulated, [simulated] { simulated->setChecked(true); });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Switch"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    // The current source as the one --source parser reads it.
    const auto spec = rdt::api::parseSourceSpec(current.source.toStdString());
    if (spec && spec->kind == rdt::api::SourceKind::Resctrl) {
        tree->setChecked(true);
        m_treePath->setText(QString::fromStdString(spec->path));
    } else if (spec && spec->simulated()) {
        simulated->setChecked(true);
    } else {
        live->setChecked(true);
    }
}

AppOptions SourceSwitchDialog::chosen() const
{
    AppOptions options = m_base;
    options.openFile.clear();
    options.connect.clear();
    options.preset.clear();
    options.scenario.clear();
    rdt::api::SourceSpec spec; // auto: this machine
    switch (m_kind->checkedId()) {
    case Simulated:
        spec.kind = rdt::api::SourceKind::Sim;
        options.preset = m_machine->preset();
        options.scenario = m_machine->scenario();
        break;
    case ResctrlTree:
        spec = { rdt::api::SourceKind::Resctrl, m_treePath->text().trimmed().toStdString() };
        break;
    default:
        break;
    }
    options.source = QString::fromStdString(spec.text());
    return options;
}

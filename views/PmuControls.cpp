// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuControls.h"
#include "ColourScheme.h"

#include "models/PmuRecipeKind.h"
#include "models/PmuSession.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStringList>
#include <QVBoxLayout>

using rdt::pmu::PmuRecipeKind;

PmuControls::PmuControls(PmuSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_machine(new QComboBox(this))
    , m_recipe(new QComboBox(this))
    , m_target(new QComboBox(this))
    , m_program(new QComboBox(this))
    , m_scale(new QDoubleSpinBox(this))
    , m_catGroup(new QComboBox(this))
    , m_targetArg(new QLineEdit(this))
    , m_start(new QPushButton(tr("Start"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_open(new QPushButton(tr("Open perf.data\u2026"), this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_advice(new QLabel(this))
    , m_state(new QLabel(this))
{
    m_machine->addItem(tr("Simulated Xeon (SimPmu)"));
    m_machine->addItem(tr("Live (perf_event_open)"));
    m_recipe->addItem(tr("TMA + LBR call stack + load latency"), static_cast<int>(PmuRecipeKind::All));
    m_recipe->addItem(tr("TMA (level 1 and 2)"), static_cast<int>(PmuRecipeKind::Tma));
    m_recipe->addItem(tr("LBR call stack"), static_cast<int>(PmuRecipeKind::LbrCallStack));
    m_recipe->addItem(tr("LBR any branch"), static_cast<int>(PmuRecipeKind::LbrAny));
    m_recipe->addItem(tr("PEBS load latency"), static_cast<int>(PmuRecipeKind::LoadLatency));
    m_recipe->addItem(tr("cpu-clock samples (software, live only)"), static_cast<int>(PmuRecipeKind::CpuClock));
    // The simulated PMU's synthetic programs (SimProgram::named), the ones lessons name (docs/LESSONS.md).
    m_program->addItem(tr("Request server"), QStringLiteral("server"));
    m_program->addItem(tr("Interpreter (frontend-bound)"), QStringLiteral("frontend"));
    m_program->addItem(tr("Hash join (backend-bound)"), QStringLiteral("backend"));
    // The range the engine accepts (PmuRequest::memoryScale); lessons use halves and doubles.
    m_scale->setRange(0.01, 100);
    m_scale->setDecimals(2);
    m_scale->setSingleStep(0.25);
    m_scale->setValue(1.0);
    m_scale->setPrefix(QStringLiteral("\u00d7 "));
    m_scale->setToolTip(tr("Multiplies the simulated program's working sets (its tables, chains and code)."));
    setCatGroups({});
    m_machine->setObjectName(QStringLiteral("pmuMachine"));
    m_scale->setObjectName(QStringLiteral("pmuScale"));
    m_catGroup->setObjectName(QStringLiteral("pmuCatGroup"));
    m_recipe->setObjectName(QStringLiteral("pmuRecipe"));
    m_program->setObjectName(QStringLiteral("pmuProgram"));
    m_start->setObjectName(QStringLiteral("pmuStart"));
    m_stop->setObjectName(QStringLiteral("pmuStop"));
    m_target->addItem(tr("System-wide"));
    m_target->addItem(tr("Attach to PID"));
    m_target->addItem(tr("Launch command"));
    m_targetArg->setPlaceholderText(tr("PID or command line"));
    for (QComboBox* c :
        { m_machine, m_recipe, m_program, m_catGroup, m_target }) { // the dock must not widen the main window
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(14);
    }
    m_targetArg->setEnabled(false);
    m_advice->setWordWrap(true);
    m_advice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    colourscheme::useWarningText(m_advice);
    m_state->setWordWrap(true);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);

    auto* form = new QFormLayout;
    form->addRow(tr("Machine"), m_machine);
    form->addRow(tr("Recipe"), m_recipe);
    form->addRow(tr("Program"), m_program);
    form->addRow(tr("Working set"), m_scale);
    form->addRow(tr("Runs in"), m_catGroup);
    form->addRow(tr("Target"), m_target);
    form->addRow(QString(), m_targetArg);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    auto* importRow = new QHBoxLayout;
    importRow->addWidget(m_progress, 1);
    importRow->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_state);
    layout->addWidget(m_advice);
    layout->addSpacing(8);
    layout->addWidget(m_open);
    layout->addLayout(importRow);
    layout->addStretch(1);

    connect(m_target, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_targetArg->setEnabled(i > 0);
        m_targetArg->setPlaceholderText(i == 1 ? tr("PID") : tr("command line"));
    });
    connect(m_machine, &QComboBox::currentIndexChanged, this, [this](int i) {
        // Live captures measure the target, not a synthetic program.
        m_program->setEnabled(i == 0);
        m_scale->setEnabled(i == 0);
        m_catGroup->setEnabled(i == 0 && m_catGroup->count() > 1);
        m_advice->clear();
        updateButtons();
    });
    connect(m_start, &QPushButton::clicked, this, &PmuControls::start);
    connect(m_stop, &QPushButton::clicked, this, &PmuControls::stop);
    connect(m_open, &QPushButton::clicked, this, &PmuControls::openPerfDataDialog);
    connect(m_cancel, &QPushButton::clicked, m_session, &PmuSession::cancelImport);
    connect(m_session, &PmuSession::importProgress, this, [this](qint64 done, qint64 total) {
        if (total > 0) {
            m_progress->setRange(0, 1000);
            m_progress->setValue(static_cast<int>(done * 1000 / total));
        } else {
            m_progress->setRange(0, 0); // a pipe: size unknown
        }
    });
    connect(m_session, &PmuSession::importFinished, this, [this](bool ok, const QString& message) {
        m_progress->setVisible(false);
        m_cancel->setVisible(false);
        m_state->setText(message);
        m_advice->setText(ok ? QString() : message);
        updateButtons();
    });
    connect(m_session, &PmuSession::simulationChanged, this, &PmuControls::updateButtons);
    connect(m_session, &PmuSession::dataReset, this, &PmuControls::updateButtons);
    updateButtons();
}

void PmuControls::setMachine(Machine m)
{
    m_machine->setCurrentIndex(m == Machine::Simulated ? 0 : 1);
}

QString PmuControls::adviceText() const
{
    return m_advice->text();
}

bool PmuControls::progressVisible() const
{
    return m_progress->isVisibleTo(this);
}

bool PmuControls::start()
{
    const auto kind = static_cast<PmuRecipeKind>(m_recipe->currentData().toInt());
    m_advice->clear();
    if (m_machine->currentIndex() == 1) {
        rdt::pmu::PerfTarget target;
        const QString arg = m_targetArg->text().trimmed();
        if (m_target->currentIndex() == 0) {
            target.systemWide = true;
        } else if (m_target->currentIndex() == 1) {
            bool ok = false;
            const int pid = arg.toInt(&ok);
            if (!ok || pid <= 0) {
                m_advice->setText(tr("Enter the PID of a running process."));
                return false;
            }
            target.pids.push_back(pid);
        } else {
            for (const QString& w : arg.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                target.command.push_back(w.toStdString());
            if (target.command.empty()) {
                m_advice->setText(tr("Enter the command line to launch."));
                return false;
            }
        }
        QString error;
        if (!m_session->startLive(kind, target, 250, &error)) {
            if (error.startsWith(QStringLiteral("cannot run '"))) // the launched command's exec failed
                m_advice->setText(tr("The command did not start: %1").arg(error));
            else
                m_advice->setText(tr("The PMU is not available for this: %1\nUse the simulated machine, or open a "
                                     "perf.data file recorded elsewhere.")
                                      .arg(error));
            m_state->setText(tr("Not started."));
            return false;
        }
        m_state->setText(tr("Live: %1").arg(m_recipe->currentText()));
        QStringList notes; // what the kernel made the capture change, e.g. "precise_ip lowered to 1 ..."
        for (const auto& n : m_session->data().notes)
            notes << QString::fromStdString(n);
        m_advice->setText(notes.join(QLatin1Char('\n')));
        return true;
    }
    if (kind == PmuRecipeKind::CpuClock) {
        m_advice->setText(tr("cpu-clock samples come from the live machine; the simulator models the PMU recipes."));
        return false;
    }
    rdt::pmu::PmuSimOptions o;
    o.kind = kind;
    o.model = m_simModel;
    o.program = m_program->currentData().toString().toStdString();
    o.memoryScale = m_scale->value();
    o.catGroup = m_catGroup->currentData().toString().toStdString();
    if (m_target->currentIndex() != 0)
        m_state->setText(tr("The simulator runs its own program; the target applies to live capture only."));
    QString error;
    if (!m_session->startSimulation(o, 250, 20'000'000, &error)) {
        m_advice->setText(error);
        return false;
    }
    const QString where = o.catGroup.empty() ? QString() : tr(" in group %1").arg(QString::fromStdString(o.catGroup));
    m_state->setText(tr("Simulating: %1 on the %2%3 (simulated data, not this machine)")
                         .arg(m_recipe->currentText(), m_program->currentText(), where));
    return true;
}

void PmuControls::setCatGroups(const QStringList& groups)
{
    if (m_catGroup->count() > 0 && groups == catGroups()) return;
    const QString chosen = m_catGroup->currentData().toString();
    m_catGroup->clear();
    m_catGroup->addItem(tr("No group (the PMU's own caches)"), QString());
    for (const QString& g : groups)
        m_catGroup->addItem(tr("Group %1 (its L3 ways)").arg(g), g);
    const int keep = m_catGroup->findData(chosen);
    m_catGroup->setCurrentIndex(keep < 0 ? 0 : keep);
    m_catGroup->setEnabled(m_machine->currentIndex() == 0 && !groups.isEmpty());
    // SDM 20.19: the group's capacity bitmask limits where the program's lines may be filled in the L3.
    m_catGroup->setToolTip(groups.isEmpty()
            ? tr("A simulated program runs in a group of the simulated machine when the RDT source is the simulator.")
            : tr("Run the simulated program in a group's class of service on the simulated machine: its L3 is the "
                 "group's ways, and follows the mask as you drag it (SDM 20.19)."));
}

QStringList PmuControls::catGroups() const
{
    QStringList out;
    for (int i = 1; i < m_catGroup->count(); ++i)
        out << m_catGroup->itemData(i).toString();
    return out;
}

void PmuControls::setSimulatedCpu(const rdt::pmu::SimPmuModel& model)
{
    if (model.pfmName == m_simModel.pfmName) return;
    m_simModel = model;
    if (m_session->simulating()) {
        stop();
        (void)start();
    }
}

void PmuControls::stop()
{
    m_session->stopSimulation();
    m_state->setText(tr("Stopped: %1").arg(m_session->sourceLabel()));
}

void PmuControls::openPerfDataDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open perf.data"), QString(), tr("perf.data files (*.data *.perfdata perf.data*);;All files (*)"));
    if (!path.isEmpty()) openPerfData(path);
}

void PmuControls::openPerfData(const QString& path)
{
    QStringList dirs { QFileInfo(path).absolutePath() };
    const QString symfs = qEnvironmentVariable("RDTSCOPE_SYMFS");
    if (!symfs.isEmpty()) dirs = symfs.split(QLatin1Char(':'), Qt::SkipEmptyParts) + dirs;
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_state->setText(tr("Reading %1\u2026").arg(QFileInfo(path).fileName()));
    m_session->openPerfData(path, dirs);
    updateButtons();
}

void PmuControls::updateButtons()
{
    const bool running = m_session->simulating();
    const bool importing = m_session->importing();
    m_start->setEnabled(!running && !importing);
    m_stop->setEnabled(running);
    m_open->setEnabled(!importing);
}

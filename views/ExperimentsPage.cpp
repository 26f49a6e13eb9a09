// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExperimentsPage.h"

#include "AdviceObjectiveEditor.h"
#include "PlotPalette.h"
#include "QCustomPlotInclude.h"
#include "engine/Engine.h"
#include "models/AllocationModel.h"
#include "models/ExperimentRun.h"
#include "rdt/GroupNames.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

using namespace rdt::experiment;

namespace {

QString shown(const std::string& path)
{
    return QString::fromStdString(rdt::displayGroup(path));
}

std::string pathOf(const QString& shownName)
{
    return rdt::groupPathFromName(shownName.trimmed().toStdString());
}

const QColor kCurveColours[] = { QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
    QColor(0x94, 0x67, 0xbd), QColor(0xff, 0x7f, 0x0e), QColor(0x8c, 0x56, 0x4b) };

} // namespace

ExperimentsPage::ExperimentsPage(ExperimentRun* run, AllocationModel* allocation, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
    , m_allocation(allocation)
    , m_group(new QComboBox(this))
    , m_kind(new QComboBox(this))
    , m_victim(new QComboBox(this))
    , m_alone(new QCheckBox(tr("Alone (others get the other ways)"), this))
    , m_realtime(new QCheckBox(tr("Real time"), this))
    , m_settle(new QDoubleSpinBox(this))
    , m_measure(new QDoubleSpinBox(this))
    , m_start(new QPushButton(tr("Start sweep"), this))
    , m_stop(new QPushButton(tr("Stop and restore"), this))
    , m_progress(new QProgressBar(this))
    , m_timeLeft(new QLabel(this))
    , m_result(new QLabel(this))
    , m_plot(new QCustomPlot(this))
    , m_record(new QLineEdit(this))
    , m_browseRecord(new QPushButton(tr("Choose..."), this))
    , m_recordStatus(new QLabel(this))
    , m_adviseGroups(new QLineEdit(this))
    , m_objective(new AdviceObjectiveEditor(this))
    , m_propose(new QPushButton(tr("Propose allocation"), this))
    , m_apply(new QPushButton(tr("Apply proposal"), this))
    , m_proposal(new QTableWidget(0, 8, this))
{
    m_kind->addItem(tr("Cache ways (L3 CAT)"), QStringLiteral("ways"));
    m_kind->addItem(tr("Bandwidth cap (MBA)"), QStringLiteral("mba"));
    for (auto* box : { m_settle, m_measure }) {
        box->setRange(0.0, 600.0);
        box->setDecimals(1);
        box->setSuffix(tr(" s"));
    }
    m_settle->setValue(1.0);
    m_measure->setMinimum(0.1);
    m_measure->setValue(2.0);
    m_alone->setToolTip(tr("Sweep the group's curve alone: at every step the other control groups get the ways it "
                           "does not hold (what a partition would give it)"));
    m_realtime->setToolTip(tr("Simulated sources run as fast as they can unless this is on; real ones always run "
                              "in real time"));
    m_stop->setEnabled(false);
    m_apply->setEnabled(false);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    form->addRow(tr("Group"), m_group);
    form->addRow(tr("Sweep"), m_kind);
    form->addRow(tr("Victim (MBA)"), m_victim);
    form->addRow(tr("Settle"), m_settle);
    form->addRow(tr("Measure"), m_measure);
    form->addRow(QString(), m_alone);
    form->addRow(QString(), m_realtime);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    form->addRow(buttons);
    form->addRow(m_progress);
    form->addRow(m_timeLeft);
    auto* sweepBox = new QGroupBox(tr("Sweep"), this);
    sweepBox->setLayout(form);

    auto* adviseForm = new QFormLayout;
    m_adviseGroups->setToolTip(tr("Control groups to share the cache between, comma-separated"));
    adviseForm->addRow(tr("Groups"), m_adviseGroups);
    adviseForm->addRow(m_objective);
    auto* adviseButtons = new QHBoxLayout;
    adviseButtons->addWidget(m_propose);
    adviseButtons->addWidget(m_apply);
    adviseForm->addRow(adviseButtons);
    auto* adviseBox = new QGroupBox(tr("Advisor (lookahead, Qureshi && Patt 2006)"), this);
    adviseBox->setLayout(adviseForm);

    m_record->setPlaceholderText(tr("not recorded"));
    m_record->setToolTip(tr("Record the next sweep or advisor run into this session file (samples, a marker per "
                            "step, the steps' table, the proposal), as rdtscope-cli sweep/advise --record does"));
    m_recordStatus->setWordWrap(true);
    auto* recordRow = new QHBoxLayout;
    recordRow->addWidget(new QLabel(tr("Record into"), this));
    recordRow->addWidget(m_record, 1);
    recordRow->addWidget(m_browseRecord);

    auto* left = new QVBoxLayout;
    left->addWidget(sweepBox);
    left->addWidget(adviseBox);
    left->addLayout(recordRow);
    left->addWidget(m_recordStatus);
    left->addWidget(m_result);
    left->addStretch(1);

    m_plot->xAxis->setLabel(tr("ways"));
    m_plot->yAxis->setLabel(tr("memory bandwidth [MB/s] (solid)"));
    m_plot->yAxis2->setLabel(tr("LLC occupancy [MiB] (dashed)"));
    m_plot->yAxis2->setVisible(true);
    // Ways and MB percentages are whole numbers: ticks on them only (19.2 ways means nothing).
    auto wholeTicks = QSharedPointer<QCPAxisTickerFixed>::create();
    wholeTicks->setTickStep(1.0);
    wholeTicks->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->xAxis->setTicker(wholeTicks);
    m_plot->legend->setVisible(false); // until the first curve: an empty legend is a stray box
    m_plot->setMinimumSize(480, 320);
    keepPlotPalette(m_plot);

    m_proposal->setHorizontalHeaderLabels({ tr("Group"), tr("Ways"), tr("Schemata"), tr("Knee"),
        tr("Expected LLC [MiB]"), tr("Expected MBT [MB/s]"), tr("Measured LLC [MiB]"), tr("Measured vs expected") });
    m_proposal->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_proposal->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_proposal->setMaximumHeight(160);

    auto* right = new QVBoxLayout;
    right->addWidget(m_plot, 1);
    right->addWidget(m_proposal);
    auto* controls = new QWidget(this);
    controls->setLayout(left);
    controls->setMaximumWidth(420);
    auto* top = new QHBoxLayout(this);
    top->addWidget(controls);
    top->addLayout(right, 1);

    connect(m_browseRecord, &QPushButton::clicked, this, &ExperimentsPage::browseRecordPath);
    connect(m_run, &ExperimentRun::recorded, this,
        [this](const QString& file) { m_recordStatus->setText(tr("Recorded into %1").arg(file)); });
    connect(m_start, &QPushButton::clicked, this, &ExperimentsPage::startSweep);
    connect(m_stop, &QPushButton::clicked, m_run, &ExperimentRun::stop);
    connect(m_propose, &QPushButton::clicked, this, &ExperimentsPage::propose);
    connect(m_apply, &QPushButton::clicked, this, &ExperimentsPage::applyProposal);
    connect(m_run, &ExperimentRun::started, this, [this] { setRunning(true); });
    connect(m_run, &ExperimentRun::finished, this, [this] {
        setRunning(false);
        refreshGroups();
    });
    connect(m_run, &ExperimentRun::stepMeasured, this, &ExperimentsPage::onStep);
    connect(m_run, &ExperimentRun::sweepDone, this, &ExperimentsPage::onSweepDone);
    connect(m_run, &ExperimentRun::adviceDone, this, &ExperimentsPage::onAdvice);
    connect(m_run, &ExperimentRun::measured, this, &ExperimentsPage::onMeasured);
    connect(m_run, &ExperimentRun::phase, this, [this](const QString& t) { m_timeLeft->setText(t); });
    connect(m_run, &ExperimentRun::failed, this,
        [this](const QString& why) { m_result->setText(tr("Refused: %1").arg(why)); });
    connect(m_run, &ExperimentRun::progress, this, [this](double fraction, double secondsLeft) {
        m_progress->setValue(static_cast<int>(std::lround(fraction * 100)));
        if (secondsLeft >= 0) m_timeLeft->setText(tr("%1 s left").arg(std::ceil(secondsLeft), 0, 'f', 0));
    });
    refreshGroups();
}

void ExperimentsPage::refreshGroups()
{
    const QString current = m_group->currentText();
    m_group->clear();
    m_victim->clear();
    m_victim->addItem(tr("(none)"));
    auto* engine = m_run->engine();
    const bool usable = engine && engine->hasRdt();
    m_start->setEnabled(usable && !m_run->isRunning());
    m_propose->setEnabled(usable && !m_run->isRunning());
    // The window builds this page before its source is open: the note goes once an engine with RDT arrives.
    const QString unusable = tr("Experiments need a live or simulated source with RDT (a replay shows only what "
                                "was recorded).");
    if (!usable) {
        m_result->setText(unusable);
        return;
    }
    if (m_result->text() == unusable) m_result->clear();
    QStringList others, all;
    for (const auto& g : engine->snapshot().groups) {
        if (!g.info.isControl) continue;
        m_group->addItem(shown(g.info.path));
        m_victim->addItem(shown(g.info.path));
        all << shown(g.info.path);
        if (!g.info.path.empty()) others << shown(g.info.path);
    }
    m_objective->setGroups(all);
    if (m_adviseGroups->text().isEmpty()) m_adviseGroups->setText(others.join(QLatin1Char(',')));
    if (const int i = m_group->findText(current); i >= 0)
        m_group->setCurrentIndex(i);
    else if (others.size() > 0)
        m_group->setCurrentText(others.back());
}

void ExperimentsPage::startSweepOf(const QString& group, bool alone)
{
    refreshGroups();
    const int i = m_group->findText(group);
    if (i < 0) {
        m_result->setText(tr("No control group %1.").arg(group));
        return;
    }
    m_group->setCurrentIndex(i);
    m_kind->setCurrentIndex(0);
    m_alone->setChecked(alone);
    startSweep();
}

void ExperimentsPage::setRunning(bool running)
{
    const bool usable = m_run->engine() && m_run->engine()->hasRdt();
    m_start->setEnabled(!running && usable);
    m_propose->setEnabled(!running && usable);
    m_stop->setEnabled(running);
    m_group->setEnabled(!running);
    m_kind->setEnabled(!running);
    m_record->setEnabled(!running);
    m_browseRecord->setEnabled(!running);
    if (running) {
        m_progress->setValue(0);
        m_timeLeft->clear();
    }
}

QCPGraph* ExperimentsPage::newCurve(const QString& name, bool occupancy)
{
    auto* g = m_plot->addGraph(m_plot->xAxis, occupancy ? m_plot->yAxis2 : m_plot->yAxis);
    QPen pen(kCurveColours[static_cast<std::size_t>(m_curves / 2) % std::size(kCurveColours)], 2);
    if (occupancy) pen.setStyle(Qt::DashLine);
    g->setPen(pen);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    g->setName(name);
    m_plot->legend->setVisible(true);
    ++m_curves;
    return g;
}

QString ExperimentsPage::kneeText() const
{
    return m_kneeLabel ? m_kneeLabel->text().trimmed() : QString();
}

void ExperimentsPage::markKnee(double x, const QString& text)
{
    if (!m_knee) {
        m_knee = new QCPItemStraightLine(m_plot);
        m_knee->setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DotLine));
    }
    m_knee->point1->setCoords(x, 0);
    m_knee->point2->setCoords(x, 1);
    if (!m_kneeLabel) {
        m_kneeLabel = new QCPItemText(m_plot);
        m_kneeLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_kneeLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        m_kneeLabel->setColor(palette().color(QPalette::WindowText));
    }
    m_kneeLabel->position->setCoords(x, 0.45); // below the legend, which sits top right
    m_kneeLabel->setText(text);
}

void ExperimentsPage::clearKnee()
{
    for (QCPAbstractItem* item : { static_cast<QCPAbstractItem*>(m_knee), static_cast<QCPAbstractItem*>(m_kneeLabel) })
        if (item) m_plot->removeItem(item);
    m_knee = nullptr;
    m_kneeLabel = nullptr;
}

void ExperimentsPage::takeRecordPath()
{
    const QString file = m_record->text().trimmed();
    m_run->setRecordPath(file);
    m_recordStatus->setText(file.isEmpty() ? QString() : tr("Recording into %1...").arg(file));
}

void ExperimentsPage::browseRecordPath()
{
    // The dialog asks before replacing a file; the run then replaces it.
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Record the experiment into"), m_record->text(), tr("rdtscope sessions (*.rdts)"));
    if (!file.isEmpty()) m_record->setText(file);
}

void ExperimentsPage::startSweep()
{
    SweepSettings s;
    s.kind = m_kind->currentData().toString() == QLatin1String("mba") ? SweepKind::Bandwidth : SweepKind::Ways;
    s.group = pathOf(m_group->currentText());
    if (s.kind == SweepKind::Bandwidth && m_victim->currentIndex() > 0) s.victim = pathOf(m_victim->currentText());
    if (s.kind == SweepKind::Ways && m_alone->isChecked())
        for (int i = 0; i < m_group->count(); ++i)
            if (m_group->itemText(i) != m_group->currentText() && m_group->itemText(i) != QLatin1String("default"))
                s.isolate.push_back(pathOf(m_group->itemText(i)));
    s.settleNs = static_cast<std::uint64_t>(m_settle->value() * 1e9);
    s.measureNs = static_cast<std::uint64_t>(m_measure->value() * 1e9);
    s.paced = m_realtime->isChecked();
    m_running = s;
    m_steps.clear();
    m_plot->xAxis->setLabel(s.kind == SweepKind::Ways ? tr("ways") : tr("MB cap [%]"));
    const QString name = shown(s.group) + (s.kind == SweepKind::Ways ? tr(" ways") : tr(" MBA"));
    m_bandwidth = newCurve(name + tr(" bandwidth"), false);
    m_occupancy = newCurve(name + tr(" occupancy"), true);
    m_result->setText(tr("Sweeping %1...").arg(name));
    takeRecordPath();
    if (!m_run->startSweep(s)) m_result->setText(tr("An experiment is already running."));
}

void ExperimentsPage::onStep(const QString& group, const SweepStep& step, unsigned)
{
    if (!m_bandwidth || (step.index == 1 && m_running.group != pathOf(group))) {
        // An advisor run: one pair of curves per group it sweeps.
        m_running.group = pathOf(group);
        m_running.kind = SweepKind::Ways;
        m_steps.clear();
        m_bandwidth = newCurve(group + tr(" alone, bandwidth"), false);
        m_occupancy = newCurve(group + tr(" alone, occupancy"), true);
    }
    m_steps.push_back(step);
    const auto x = static_cast<double>(step.value);
    m_bandwidth->addData(x, step.totalBps / 1e6);
    m_occupancy->addData(x, step.occupancyBytes / 1048576.0);
    const auto knees = kneesOf(m_running, m_steps);
    if (knees.bandwidth.found && m_steps.size() >= 3) {
        if (knees.bandwidth.zero)
            clearKnee(); // every step read 0: no knee to draw
        else
            markKnee(knees.bandwidth.x,
                knees.bandwidth.flat ? tr(" flat so far from %1").arg(knees.bandwidth.x)
                                     : tr(" knee so far: %1").arg(knees.bandwidth.x));
    }
    m_plot->rescaleAxes();
    m_plot->xAxis->scaleRange(1.1);
    // Bandwidth and occupancy start at zero (a flat zero curve was drawn on -2..2).
    for (QCPAxis* y : { m_plot->yAxis, m_plot->yAxis2 })
        y->setRange(0, std::max(y->range().upper * 1.1, 1.0));
    m_plot->replot();
}

void ExperimentsPage::onSweepDone(const SweepResult& r)
{
    const QString unit = r.settings.kind == SweepKind::Ways ? tr("ways") : tr("% MB");
    QStringList lines;
    if (r.knees.bandwidth.found) {
        lines << tr("Knee: %1").arg(QString::fromStdString(r.knees.bandwidth.explain(unit.toStdString())));
        if (r.knees.bandwidth.zero)
            clearKnee(); // nothing was measured: no line to draw
        else
            markKnee(r.knees.bandwidth.x,
                tr(" knee: %1 %2")
                    .arg(r.knees.bandwidth.x)
                    .arg(r.knees.bandwidth.x == 1 && r.settings.kind == SweepKind::Ways ? tr("way") : unit));
    }
    const auto first = r.steps.empty() ? nullptr : &r.steps.front();
    const auto last = r.steps.empty() ? nullptr : &r.steps.back();
    if (first && first->mpki && first->ipc && last->mpki && last->ipc)
        lines << tr("PMU: MPKI %1 at %2 %3, %4 at %5; IPC %6 to %7 (%8)")
                     .arg(*first->mpki, 0, 'f', 2)
                     .arg(first->value)
                     .arg(unit)
                     .arg(*last->mpki, 0, 'f', 2)
                     .arg(last->value)
                     .arg(*first->ipc, 0, 'f', 2)
                     .arg(*last->ipc, 0, 'f', 2)
                     .arg(QString::fromStdString(r.pmu.method));
    else if (!r.pmu.available && !r.pmu.unavailable.empty())
        lines << tr("No PMU figures: %1").arg(QString::fromStdString(r.pmu.unavailable));
    if (r.stopped) lines << tr("Stopped after %1 step(s).").arg(r.steps.size());
    if (r.error) lines << tr("Step failed: %1").arg(QString::fromStdString(r.error->toString()));
    lines << (r.restored ? tr("Original allocation restored.") : tr("The original allocation could NOT be restored."));
    if (r.simulated) lines << tr("All values are simulated.");
    m_result->setText(lines.join(QLatin1Char('\n')));
    m_plot->replot();
}

void ExperimentsPage::propose()
{
    AdviseSettings s;
    s.groups = rdt::groupPathsFromList(m_adviseGroups->text().toStdString());
    s.sweep.settleNs = static_cast<std::uint64_t>(m_settle->value() * 1e9);
    s.sweep.measureNs = static_cast<std::uint64_t>(m_measure->value() * 1e9);
    s.sweep.paced = m_realtime->isChecked();
    auto advice = m_objective->settings(s.groups);
    if (!advice) {
        m_result->setText(tr("Refused: %1").arg(QString::fromStdString(advice.error().toString())));
        return;
    }
    s.advice = *advice;
    m_objectiveShown = QString::fromLatin1(objectiveName(s.advice.objective));
    if (s.advice.objective == Objective::Weighted)
        m_objectiveShown += QStringLiteral(": ") + m_objective->weightsEdit()->text().trimmed();
    if (s.advice.objective == Objective::Protect) m_objectiveShown += QStringLiteral(": ") + shown(s.advice.protect);
    m_running = {};
    m_bandwidth = nullptr;
    m_result->setText(tr("Sweeping each group alone, then proposing..."));
    takeRecordPath();
    if (!m_run->startAdvise(s)) m_result->setText(tr("An experiment is already running."));
}

void ExperimentsPage::onAdvice(const AdviseResult& r)
{
    if (r.stopped) {
        m_result->setText(tr("Stopped; every sweep's allocation was restored, nothing proposed."));
        return;
    }
    m_advice = r.advice;
    m_proposal->setRowCount(static_cast<int>(r.advice.groups.size()));
    for (int i = 0; i < m_proposal->rowCount(); ++i) {
        const auto& g = r.advice.groups[static_cast<std::size_t>(i)];
        const auto text
            = QString::fromStdString(g.change.format()).trimmed().replace(QLatin1Char('\n'), QLatin1Char(' '));
        const QStringList cells { shown(g.group), QString::number(g.ways), text,
            QString::number(r.curves[static_cast<std::size_t>(i)].knee.x),
            QString::number(g.expectedOccupancyBytes / 1048576.0, 'f', 2),
            QString::number(g.expectedTotalBps / 1e6, 'f', 1), QString(), QString() };
        for (int c = 0; c < cells.size(); ++c)
            m_proposal->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    // Staged on the heatmap as a pending edit: the user sees it there and applies it as one edit.
    m_applyLiveBefore = m_allocation->applyLive();
    m_allocation->setApplyLive(false);
    int staged = 0;
    for (const auto& g : r.advice.groups) {
        const int row = m_allocation->rowFor(QString::fromStdString(g.group), QStringLiteral("L3"));
        if (row >= 0 && m_allocation->setPendingMask(row, g.mask)) ++staged;
    }
    QStringList lines;
    lines << tr("Proposal (objective %1) staged on the heatmap (%2 group(s)); Apply proposal writes it.")
                 .arg(m_objectiveShown)
                 .arg(staged);
    for (const auto& n : r.advice.notes)
        lines << QString::fromStdString(n);
    if (r.simulated) lines << tr("All values are simulated.");
    m_result->setText(lines.join(QLatin1Char('\n')));
    m_apply->setEnabled(staged > 0);
}

void ExperimentsPage::applyProposal()
{
    const bool applied = m_allocation->apply();
    m_allocation->setApplyLive(m_applyLiveBefore);
    if (!applied) {
        m_result->setText(tr("The proposal was refused; nothing changed. %1").arg(m_allocation->readOnlyReason()));
        return;
    }
    m_apply->setEnabled(false);
    m_result->setText(tr("Applied; measuring against the prediction..."));
    (void)m_run->startMeasure(static_cast<std::uint64_t>(m_settle->value() * 1e9),
        static_cast<std::uint64_t>(m_measure->value() * 1e9), m_realtime->isChecked());
}

void ExperimentsPage::onMeasured(const std::map<std::string, GroupMeasure>& groups)
{
    for (int i = 0; i < m_proposal->rowCount() && i < static_cast<int>(m_advice.groups.size()); ++i) {
        const auto& g = m_advice.groups[static_cast<std::size_t>(i)];
        const auto it = groups.find(g.group);
        if (it == groups.end()) continue;
        const double got = it->second.occupancyBytes;
        const double diff
            = g.expectedOccupancyBytes > 0 ? 100.0 * (got - g.expectedOccupancyBytes) / g.expectedOccupancyBytes : 0;
        m_proposal->setItem(i, 6, new QTableWidgetItem(QString::number(got / 1048576.0, 'f', 2)));
        m_proposal->setItem(i, 7,
            new QTableWidgetItem(
                QStringLiteral("%1%2 %").arg(diff >= 0 ? QStringLiteral("+") : QString()).arg(diff, 0, 'f', 1)));
    }
    m_result->setText(tr("Applied and measured: see the table (measured occupancy against the expected)."));
}

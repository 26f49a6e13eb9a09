// SPDX-License-Identifier: GPL-3.0-or-later
#include "InterferencePage.h"

#include "engine/Engine.h"
#include "models/BlameRun.h"

#include "blame/TaskSuspects.h"
#include "rdt/GroupNames.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

QString percent(double share, int decimals = 0)
{
    return QStringLiteral("%1 %").arg(share * 100, 0, 'f', decimals);
}

} // namespace

InterferencePage::InterferencePage(BlameRun* run, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
    , m_victim(new QComboBox(this))
    , m_duration(new QDoubleSpinBox(this))
    , m_probe(new QCheckBox(tr("Probe"), this))
    , m_contain(new QCheckBox(tr("Contain the culprit"), this))
    , m_start(new QPushButton(tr("Find who hurts it"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_undo(new QPushButton(tr("Undo containment"), this))
    , m_status(new QLabel(this))
    , m_harm(new QLabel(this))
    , m_ranking(new QTableWidget(0, 6, this))
    , m_containment(new QLabel(this))
{
    m_victim->setObjectName(QStringLiteral("victim"));
    m_duration->setObjectName(QStringLiteral("duration"));
    m_probe->setObjectName(QStringLiteral("probe"));
    m_contain->setObjectName(QStringLiteral("contain"));
    m_start->setObjectName(QStringLiteral("start"));
    m_undo->setObjectName(QStringLiteral("undo"));
    m_ranking->setObjectName(QStringLiteral("ranking"));
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_probe->setToolTip(tr("Fence each top suspect briefly (ways or MBA), re-measure the victim, restore"));
    m_harm->setObjectName(QStringLiteral("harm"));
    m_containment->setObjectName(QStringLiteral("containment"));
    m_duration->setRange(1, 3600);
    m_duration->setValue(10);
    m_duration->setSuffix(tr(" s"));
    m_stop->setEnabled(false);
    m_undo->setEnabled(false);
    for (auto* l : { m_status, m_harm, m_containment })
        l->setWordWrap(true);
    m_ranking->setHorizontalHeaderLabels(
        { tr("Group"), tr("Resource"), tr("Effect"), tr("+-"), tr("Verdict"), tr("Evidence") });
    m_ranking->horizontalHeader()->setStretchLastSection(true);
    // The short columns take what they show, so the evidence keeps the width of a 1280-pixel window's centre.
    for (int c = 0; c < 5; ++c)
        m_ranking->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_ranking->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_ranking->setWordWrap(true);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Victim:"), this));
    controls->addWidget(m_victim);
    controls->addWidget(new QLabel(tr("Watch for:"), this));
    controls->addWidget(m_duration);
    controls->addWidget(m_probe);
    controls->addWidget(m_contain);
    controls->addStretch(1);
    // The actions on a row of their own: in one row with the settings the page was wider than the window's centre
    // at 1280x720 and its buttons were cut off.
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_start);
    actions->addWidget(m_stop);
    actions->addWidget(m_undo);
    actions->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(actions);
    layout->addWidget(m_status);
    layout->addWidget(m_harm);
    layout->addWidget(m_ranking, 1);
    layout->addWidget(m_containment);

    connect(m_start, &QPushButton::clicked, this, &InterferencePage::startRun);
    connect(m_stop, &QPushButton::clicked, m_run, &BlameRun::stop);
    connect(m_undo, &QPushButton::clicked, this, &InterferencePage::undo);
    connect(m_run, &BlameRun::phase, m_status, &QLabel::setText);
    connect(m_run, &BlameRun::probed, this, [this](const rdt::blame::ProbeResult& p) {
        m_status->setText(tr("Probe: %1").arg(QString::fromStdString(p.sentence)));
    });
    connect(
        m_run, &BlameRun::failed, this, [this](const QString& why) { m_status->setText(tr("Refused: %1").arg(why)); });
    connect(m_run, &BlameRun::done, this, &InterferencePage::showResult);
    connect(m_run, &BlameRun::started, this, [this] {
        m_start->setEnabled(false);
        m_stop->setEnabled(true);
    });
    connect(m_run, &BlameRun::finished, this, [this] {
        m_stop->setEnabled(false);
        refreshGroups();
    });
    refreshGroups();
}

void InterferencePage::refreshGroups()
{
    const QString current = m_victim->currentText();
    m_victim->clear();
    auto* engine = m_run->engine();
    const bool usable = engine && engine->hasRdt();
    m_start->setEnabled(usable && !m_run->isRunning());
    const QString needsEngine = tr("Blame needs a live or simulated source with RDT (a replay shows only what was "
                                   "recorded).");
    if (!usable) {
        m_status->setText(needsEngine);
        return;
    }
    // The reason shown while there was no engine goes with it; a run's result stays.
    if (m_status->text().isEmpty() || m_status->text() == needsEngine)
        m_status->setText(tr("Choose the group that suffers and press \"Find who hurts it\": every other group is "
                             "ranked by how its cache fills and memory traffic move against the victim's loss."));
    for (const auto& g : engine->snapshot().groups)
        if (g.info.isControl) m_victim->addItem(QString::fromStdString(rdt::displayGroup(g.info.path)));
    if (const int i = m_victim->findText(current); i >= 0) m_victim->setCurrentIndex(i);
    // Probes and containment write allocations: offered only where the engine says it can, with its reason.
    const auto& w = engine->source().writability;
    for (auto* box : { m_probe, m_contain }) {
        box->setEnabled(w.writable);
        if (!w.writable) box->setToolTip(QString::fromStdString(w.text()));
        if (!w.writable) box->setChecked(false);
    }
    if (!w.writable) m_status->setText(tr("Passive ranking only: %1").arg(QString::fromStdString(w.text())));
}

void InterferencePage::startRun()
{
    rdt::blame::BlameSettings s;
    s.victim = rdt::groupPathFromName(m_victim->currentText().toStdString());
    s.durationNs = static_cast<std::uint64_t>(m_duration->value() * 1e9);
    s.probe = m_probe->isChecked();
    s.contain = m_contain->isChecked();
    m_ranking->setRowCount(0);
    m_harm->clear();
    m_containment->clear();
    if (!m_run->start(s)) m_status->setText(tr("Blame cannot start: no engine, or it is already running."));
}

void InterferencePage::showResult(const rdt::blame::BlameResult& r)
{
    QStringList harm;
    harm << tr("<b>%1</b>%2")
                .arg(QString::fromStdString(rdt::displayGroup(r.harm.group)).toHtmlEscaped(),
                    r.simulated ? tr(" (simulated)") : QString());
    for (const auto& d : r.harm.domains)
        harm << QString::fromStdString(d.text).toHtmlEscaped();
    if (r.harm.ipc)
        harm << tr("IPC %1, MPKI %2 (%3)")
                    .arg(*r.harm.ipc, 0, 'f', 2)
                    .arg(r.harm.mpki.value_or(0), 0, 'f', 2)
                    .arg(QString::fromStdString(r.harm.pmu).toHtmlEscaped());
    for (const auto& m : r.harm.missing)
        harm << tr("missing: %1").arg(QString::fromStdString(m).toHtmlEscaped());
    m_harm->setText(harm.join(QStringLiteral("<br>")));
    m_ranking->setRowCount(static_cast<int>(r.ranking.size()));
    for (int row = 0; row < static_cast<int>(r.ranking.size()); ++row) {
        const auto& s = r.ranking[static_cast<std::size_t>(row)];
        QString evidence = QString::fromStdString(s.sentence);
        if (s.probe && !s.probe->sentence.empty())
            evidence += QStringLiteral("\n") + QString::fromStdString(s.probe->sentence);
        const QStringList cells { QString::fromStdString(rdt::blame::suspectName(s)),
            QString::fromLatin1(rdt::blame::resourceName(s.resource)), s.task ? QStringLiteral("-") : percent(s.effect),
            s.task ? QStringLiteral("-") : percent(s.uncertainty, 1),
            s.probe && !s.probe->verdict.empty() ? QString::fromStdString(s.probe->verdict) : QStringLiteral("-"),
            evidence };
        for (int c = 0; c < cells.size(); ++c)
            m_ranking->setItem(row, c, new QTableWidgetItem(cells[c]));
    }
    m_ranking->resizeRowsToContents();
    QStringList notes;
    for (const auto& n : r.notes)
        notes << QString::fromStdString(n);
    if (r.probed)
        notes << (r.restored ? tr("Every probed allocation reads back as before (%1 writes).").arg(r.probeWrites)
                             : tr("A probed allocation could NOT be restored."));
    m_status->setText(notes.join(QStringLiteral("\n")));
    m_contained.reset();
    if (r.containment && r.containment->applied) {
        m_contained = r.containment;
        m_containment->setText(QString::fromStdString(r.containment->sentence));
    } else if (r.containment) {
        m_containment->setText(tr("Not contained: %1").arg(QString::fromStdString(r.containment->error)));
    }
    m_undo->setEnabled(m_contained.has_value());
}

void InterferencePage::undo()
{
    if (!m_contained) return;
    const auto out = m_run->undoContainment(*m_contained);
    if (out.ok) {
        m_containment->setText(tr("Containment undone: %1 is back to %2")
                                   .arg(QString::fromStdString(rdt::displayGroup(m_contained->group)),
                                       QString::fromStdString(m_contained->undoText)));
        m_contained.reset();
        m_undo->setEnabled(false);
    } else {
        m_containment->setText(tr("Undo failed: %1").arg(QString::fromStdString(out.toString())));
    }
}

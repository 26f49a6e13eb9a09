// SPDX-License-Identifier: GPL-3.0-or-later
#include "AdviceObjectiveEditor.h"

#include "experiment/GroupWeight.h"
#include "rdt/GroupNames.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

#include <cerrno>

using namespace rdt::experiment;

AdviceObjectiveEditor::AdviceObjectiveEditor(QWidget* parent)
    : QWidget(parent)
    , m_objective(new QComboBox(this))
    , m_weights(new QLineEdit(this))
    , m_protect(new QComboBox(this))
    , m_weightsLabel(new QLabel(tr("Weights"), this))
    , m_protectLabel(new QLabel(tr("Protect"), this))
{
    // The data are the CLI's --objective names (experiment::objectiveName), so both read the same words.
    m_objective->addItem(tr("Fewest misses (most hits)"), QString::fromLatin1(objectiveName(Objective::Misses)));
    m_objective->addItem(tr("Weighted sum"), QString::fromLatin1(objectiveName(Objective::Weighted)));
    m_objective->addItem(tr("Protect one group first"), QString::fromLatin1(objectiveName(Objective::Protect)));
    m_weights->setPlaceholderText(QStringLiteral("victim=3,streamer=1"));
    m_weights->setToolTip(tr("GROUP=WEIGHT, comma-separated, weights from 0 to 1000000; groups not named weigh 1"));
    m_protect->setToolTip(tr("This group first gets its knee; the others share the rest by misses"));
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Objective"), m_objective);
    form->addRow(m_weightsLabel, m_weights);
    form->addRow(m_protectLabel, m_protect);
    connect(m_objective, &QComboBox::currentIndexChanged, this, &AdviceObjectiveEditor::showChoice);
    showChoice();
}

void AdviceObjectiveEditor::setGroups(const QStringList& shownNames)
{
    const QString current = m_protect->currentText();
    m_protect->clear();
    m_protect->addItems(shownNames);
    if (const int i = m_protect->findText(current); i >= 0) m_protect->setCurrentIndex(i);
}

void AdviceObjectiveEditor::showChoice()
{
    const QString name = m_objective->currentData().toString();
    const bool weighted = name == QLatin1String(objectiveName(Objective::Weighted));
    const bool protect = name == QLatin1String(objectiveName(Objective::Protect));
    m_weights->setVisible(weighted);
    m_weightsLabel->setVisible(weighted);
    m_protect->setVisible(protect);
    m_protectLabel->setVisible(protect);
}

rdt::Result<AdviceSettings> AdviceObjectiveEditor::settings(const std::vector<std::string>& groups) const
{
    AdviceSettings s;
    auto objective = parseObjective(m_objective->currentData().toString().toStdString());
    if (!objective) return objective.error();
    s.objective = *objective;
    if (s.objective == Objective::Weighted) {
        auto weights = parseGroupWeights(m_weights->text().toStdString());
        if (!weights) return weights.error();
        s.weights = weightsByPath(*weights);
    }
    if (s.objective == Objective::Protect) {
        if (m_protect->currentIndex() < 0)
            return rdt::errnoError(EINVAL, "no group to protect", "choose the group to protect");
        s.protect = rdt::groupPathFromName(m_protect->currentText().trimmed().toStdString());
    }
    if (auto ok = checkObjective(s, groups); !ok) return ok.error();
    return s;
}

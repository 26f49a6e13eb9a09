// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonPanel.h"

#include "engine/Engine.h"
#include "lesson/LessonRun.h"
#include "lesson/PmuMeasurements.h"
#include "models/LessonModel.h"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

using rdt::lesson::LessonQuestion;
using rdt::lesson::StepPhase;

namespace {

QPushButton* button(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setToolTip(tip);
    b->setAccessibleDescription(tip);
    return b;
}

} // namespace

LessonPanel::LessonPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new LessonModel(this))
    , m_title(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_steps(new QListView(this))
    , m_text(new QTextBrowser(this))
    , m_look(new QLabel(this))
    , m_pmu(new QLabel(this))
    , m_status(new QLabel(this))
    , m_doIt(button(tr("Do it for me"), tr("Perform this step's action through the engine"), this))
    , m_question(new QLabel(this))
    , m_number(new QLineEdit(this))
    , m_choices(new QComboBox(this))
    , m_check(button(tr("Check"), tr("Grade the answer against what this run measured"), this))
    , m_feedback(new QLabel(this))
    , m_hint(button(tr("Hint"), tr("Show the next hint"), this))
    , m_skip(button(tr("Skip"), tr("Leave this step and go to the next"), this))
    , m_next(button(tr("Next"), tr("Go to the next step"), this))
    , m_reset(button(tr("Reset"), tr("Start the lesson again on a fresh simulated machine"), this))
{
    setObjectName(QStringLiteral("lessonPanel"));
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::RichText);
    m_progress->setFormat(tr("%v of %m steps"));
    m_steps->setModel(m_model);
    m_steps->setSelectionMode(QAbstractItemView::NoSelection);
    m_steps->setAccessibleName(tr("Lesson steps"));
    m_text->setOpenLinks(false);
    m_text->setAccessibleName(tr("Step text"));
    m_look->setWordWrap(true);
    m_pmu->setWordWrap(true);
    m_pmu->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pmu->setAccessibleName(tr("Simulated PMU capture"));
    m_status->setWordWrap(true);
    m_question->setWordWrap(true);
    m_feedback->setWordWrap(true);
    m_number->setPlaceholderText(tr("your answer"));
    m_number->setAccessibleName(tr("Answer"));
    m_choices->setAccessibleName(tr("Answer choices"));

    // Everything above the Hint/Skip/Next/Reset row scrolls as one page, so those buttons stay in view however short
    // the dock is and no label is cut off (seen under Xvfb: Next fell below the window's edge in a 1000-pixel screen).
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_progress);
    layout->addWidget(m_steps);
    m_text->setMinimumHeight(fontMetrics().lineSpacing() * 10);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_look);
    layout->addWidget(m_pmu);
    layout->addWidget(m_status);
    layout->addWidget(m_doIt);
    layout->addWidget(m_question);
    auto* answer = new QHBoxLayout;
    answer->addWidget(m_number, 1);
    answer->addWidget(m_choices, 1);
    answer->addWidget(m_check);
    layout->addLayout(answer);
    layout->addWidget(m_feedback);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* moves = new QHBoxLayout;
    moves->addWidget(m_hint);
    moves->addWidget(m_skip);
    moves->addWidget(m_next);
    moves->addStretch();
    moves->addWidget(m_reset);
    auto* outer = new QVBoxLayout(this);
    outer->addWidget(scroll, 1);
    outer->addLayout(moves);

    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("explain")) Q_EMIT explainRequested(url.path());
    });
    connect(m_doIt, &QPushButton::clicked, this, &LessonPanel::doIt);
    connect(m_check, &QPushButton::clicked, this, &LessonPanel::checkAnswer);
    connect(m_number, &QLineEdit::returnPressed, this, &LessonPanel::checkAnswer);
    connect(m_hint, &QPushButton::clicked, this, [this] {
        if (!m_run) return;
        const auto hint = m_run->nextHint();
        m_feedback->setText(
            hint.empty() ? tr("This step has no hint.") : tr("Hint: %1").arg(QString::fromStdString(hint)));
    });
    connect(m_skip, &QPushButton::clicked, this, [this] { moveOn(true); });
    connect(m_next, &QPushButton::clicked, this, [this] { moveOn(false); });
    connect(m_reset, &QPushButton::clicked, this, &LessonPanel::resetRequested);
    setRun(nullptr, nullptr);
}

void LessonPanel::setRun(rdt::lesson::LessonRun* run, rdt::engine::Engine* engine)
{
    m_run = run;
    m_engine = engine;
    m_shownStep = static_cast<std::size_t>(-1);
    m_model->setRun(run);
    if (!run) {
        m_title->setText(tr("No lesson. Start one with Help > Lessons or rdtscope --lesson NAME."));
        m_text->clear();
    } else {
        const auto& l = run->lesson();
        m_title->setText(QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>")
                             .arg(QString::fromStdString(l.title).toHtmlEscaped(),
                                 QString::fromStdString(l.conceptText).toHtmlEscaped(),
                                 tr("on the simulated machine: every figure is simulated")));
        m_progress->setRange(0, static_cast<int>(l.steps.size()));
        // The step list as tall as its steps (up to eight): the step's text gets the rest.
        const int rows = std::min(8, std::max(1, m_model->rowCount()));
        m_steps->setFixedHeight(
            rows * std::max(m_steps->sizeHintForRow(0), fontMetrics().height()) + 2 * m_steps->frameWidth() + 2);
    }
    refresh();
}

void LessonPanel::showStep()
{
    const auto& s = m_run->step();
    m_shownStep = m_run->stepIndex();
    QString html = QStringLiteral("<h3>%1</h3>").arg(QString::fromStdString(s.title).toHtmlEscaped());
    for (const auto& para : QString::fromStdString(s.text).split(QLatin1Char('\n')))
        html += QStringLiteral("<p>%1</p>").arg(para.toHtmlEscaped());
    if (!s.explain.empty()) {
        html += QStringLiteral("<p>") + tr("Explain:");
        for (const auto& topic : s.explain)
            html += QStringLiteral(" <a href=\"explain:%1\">%1</a>").arg(QString::fromStdString(topic));
        html += QStringLiteral("</p>");
    }
    m_text->setHtml(html);
    QStringList groups;
    if (s.look) {
        for (const auto& g : s.look->groups)
            groups << QString::fromStdString(g);
        m_look->setText(
            tr("Look at: <b>%1</b> %2")
                .arg(QString::fromStdString(s.look->view), groups.join(QStringLiteral(", ")).toHtmlEscaped()));
    } else {
        m_look->clear();
    }
    m_question->setText(QString::fromStdString(s.question.text));
    m_number->clear();
    m_choices->clear();
    for (const auto& c : s.question.choices)
        m_choices->addItem(QString::fromStdString(c.text));
    m_feedback->clear();
    if (!s.explain.empty()) Q_EMIT explainRequested(QString::fromStdString(s.explain.front()));
    if (s.look) Q_EMIT lookRequested(QString::fromStdString(s.look->view), groups);
}

void LessonPanel::refresh()
{
    const bool on = m_run != nullptr;
    for (QWidget* w :
        std::initializer_list<QWidget*> { m_doIt, m_check, m_hint, m_skip, m_next, m_reset, m_number, m_choices })
        w->setEnabled(on);
    m_model->refresh();
    if (!on) {
        m_status->clear();
        m_question->clear();
        m_pmu->hide();
        m_number->hide();
        m_choices->hide();
        return;
    }
    m_progress->setValue(static_cast<int>(m_run->completedSteps()));
    if (m_run->finished()) {
        std::size_t skipped = 0;
        for (std::size_t i = 0; i < m_run->lesson().steps.size(); ++i)
            if (m_run->stepSkipped(i)) ++skipped;
        m_status->setText(tr("Lesson complete: %1 of %2 steps, %3 skipped.")
                              .arg(m_run->completedSteps())
                              .arg(m_run->lesson().steps.size())
                              .arg(skipped));
        for (QWidget* w :
            std::initializer_list<QWidget*> { m_doIt, m_check, m_hint, m_skip, m_next, m_number, m_choices })
            w->setEnabled(false);
        return;
    }
    if (m_shownStep != m_run->stepIndex()) showStep();
    const auto& s = m_run->step();
    const auto phase = m_run->phase();
    QString status;
    if (phase == StepPhase::Action)
        status = tr("Your turn: %1").arg(QString::fromStdString(s.action.text));
    else if (phase == StepPhase::Running)
        status = tr("Running: %1 s of simulated time left")
                     .arg(double(m_run->runLeftNs(m_engine->nowNs())) * 1e-9, 0, 'f', 1);
    else if (phase == StepPhase::Question)
        status = tr("Answer the question below.");
    else
        status = tr("Step done. Go on with Next.");
    // A PMU step's capture is the data the student reads (the GUI's PMU pages show their own captures).
    const auto& report = m_run->measurements().pmuReport();
    const bool ran = phase == StepPhase::Question || phase == StepPhase::Done;
    QString pmu;
    if (report && ran)
        for (const auto& line : rdt::lesson::describePmuReport(*report))
            pmu += (pmu.isEmpty() ? tr("Simulated PMU capture:") : QString()) + QStringLiteral("\n")
                + QString::fromStdString(line);
    m_pmu->setText(pmu);
    m_pmu->setVisible(!pmu.isEmpty());
    // The claims carry the measured values, which would give a question's answer away: shown once it is answered.
    if (phase == StepPhase::Done) status += claimsText();
    m_status->setText(status);
    m_doIt->setVisible(s.action.kind != rdt::lesson::LessonAction::Kind::None);
    m_doIt->setEnabled(phase == StepPhase::Action);
    const bool number = s.question.kind == LessonQuestion::Kind::Number;
    const bool choice = s.question.kind == LessonQuestion::Kind::Choice;
    m_number->setVisible(number);
    m_choices->setVisible(choice);
    m_check->setVisible(number || choice);
    m_question->setVisible(number || choice);
    m_check->setEnabled(phase == StepPhase::Question);
    m_number->setEnabled(phase == StepPhase::Question);
    m_choices->setEnabled(phase == StepPhase::Question);
    m_next->setEnabled(phase == StepPhase::Done);
}

void LessonPanel::doIt()
{
    if (!m_run || !m_engine) return;
    const auto r = m_run->perform(*m_engine);
    m_feedback->setText(r.ok ? tr("Done: %1").arg(QString::fromStdString(m_run->step().action.text))
                             : tr("Refused: %1").arg(QString::fromStdString(r.toString())));
    refresh();
}

void LessonPanel::checkAnswer()
{
    if (!m_run || m_run->phase() != StepPhase::Question) return;
    rdt::lesson::AnswerCheck result;
    if (m_run->step().question.kind == LessonQuestion::Kind::Number) {
        bool ok = false;
        const double value = m_number->text().trimmed().toDouble(&ok);
        if (!ok) {
            m_feedback->setText(tr("Type a number."));
            return;
        }
        result = m_run->answerNumber(value);
    } else {
        result = m_run->answerChoice(static_cast<std::size_t>(std::max(0, m_choices->currentIndex())));
    }
    m_feedback->setText(QString::fromStdString(result.feedback));
    refresh();
}

QString LessonPanel::claimsText() const
{
    QString text;
    for (const auto& c : m_run->claims())
        text += QStringLiteral("\n") + (c.held ? tr("Seen in this run: ") : tr("Not seen in this run: "))
            + QString::fromStdString(c.text + " (" + c.detail + ")");
    return text;
}

void LessonPanel::moveOn(bool skip)
{
    if (!m_run || !m_engine) return;
    // A skipped step that has run still shows what it measured (the next step's text replaces the status).
    QString skipped;
    const auto phase = m_run->phase();
    if (skip && (phase == StepPhase::Question || phase == StepPhase::Done)) {
        const auto& s = m_run->step();
        skipped = tr("Skipped \u201c%1\u201d.").arg(QString::fromStdString(s.title));
        if (s.question.kind == LessonQuestion::Kind::Number) {
            if (const auto measured = m_run->measuredAnswer())
                skipped += QLatin1Char(' ')
                    + tr("This run measured %1 %2.")
                          .arg(QString::fromStdString(rdt::lesson::formatMeasured(*measured)),
                              QString::fromStdString(s.question.unit))
                          .trimmed();
        } else if (s.question.kind == LessonQuestion::Kind::Choice) {
            const auto right = m_run->rightChoices();
            if (right.size() == 1)
                skipped += QLatin1Char(' ')
                    + tr("The answer was: %1.").arg(QString::fromStdString(s.question.choices[right.front()].text));
        }
        skipped += claimsText();
    }
    if (skip)
        m_run->skip(*m_engine);
    else
        m_run->next(*m_engine);
    refresh();
    if (!skipped.isEmpty()) m_feedback->setText(skipped);
}

QString LessonPanel::feedbackText() const
{
    return m_feedback->text();
}

QString LessonPanel::pmuText() const
{
    return m_pmu->text();
}

QString LessonPanel::statusText() const
{
    return m_status->text();
}

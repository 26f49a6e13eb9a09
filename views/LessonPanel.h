// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

#include <QWidget>
#include <cstddef>

class LessonModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QProgressBar;
class QPushButton;
class QTextBrowser;

namespace rdt::engine {
class Engine;
}
namespace rdt::lesson {
class LessonRun;
}

/// The Lessons panel (issue #22): the lesson's steps and progress, the current step's text (its SDM references
/// open the Explain panel), where to look, the action ("Do it for me" performs it), the question with its answer
/// field, and Check, Hint, Skip, Next and Reset. It drives a LessonRun over the window's engine; the main window
/// feeds the run the engine's events and calls refresh() every frame.
class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    /// Follows `run` on `engine` (both owned elsewhere; null: no lesson).
    void setRun(rdt::lesson::LessonRun* run, rdt::engine::Engine* engine);
    /// Simulated time passed or the run moved: re-reads phase, time left, claims and buttons.
    void refresh();

    LessonModel* model() const { return m_model; }
    // The controls, for tests and keyboard users.
    QPushButton* doItButton() const { return m_doIt; }
    QPushButton* checkButton() const { return m_check; }
    QPushButton* hintButton() const { return m_hint; }
    QPushButton* skipButton() const { return m_skip; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* resetButton() const { return m_reset; }
    QLineEdit* numberField() const { return m_number; }
    QComboBox* choiceBox() const { return m_choices; }
    QString feedbackText() const;
    QString statusText() const;
    QString pmuText() const;

Q_SIGNALS:
    void explainRequested(const QString& topic);
    /// The step says where to look: a view ("timeline", "allocation", "monitor", "machine") and groups.
    void lookRequested(const QString& view, const QStringList& groups);
    /// Reset: the window reopens the lesson's machine and starts the run again.
    void resetRequested();

private:
    void showStep();
    void checkAnswer();
    void doIt();
    void moveOn(bool skip);
    /// "Seen in this run: CLAIM (measured ...)" lines of the step's claims, each after a newline.
    QString claimsText() const;

    rdt::lesson::LessonRun* m_run = nullptr;
    rdt::engine::Engine* m_engine = nullptr;
    std::size_t m_shownStep = static_cast<std::size_t>(-1);
    LessonModel* m_model;
    QLabel* m_title;
    QProgressBar* m_progress;
    QListView* m_steps;
    QTextBrowser* m_text;
    QLabel* m_look;
    QLabel* m_pmu; ///< what the step's simulated PMU capture measured (TMA, LBR, loads), once the step has run
    QLabel* m_status;
    QPushButton* m_doIt;
    QLabel* m_question;
    QLineEdit* m_number;
    QComboBox* m_choices;
    QPushButton* m_check;
    QLabel* m_feedback;
    QPushButton* m_hint;
    QPushButton* m_skip;
    QPushButton* m_next;
    QPushButton* m_reset;
};

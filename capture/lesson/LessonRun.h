// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One student's way through a lesson, on an engine over the lesson's simulated machine. Qt-free and passive:
// whoever drives the engine (the GUI's frame pump, the CLI checker) hands it the events it drains and calls
// update() as simulated time passes; the run detects each step's action from those events, lets the step run,
// measures, checks the lesson's claims and grades answers against what was measured in this run.

#include "Lesson.h"
#include "RunMeasurements.h"
#include "engine/Engine.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt::lesson {

/// Where the current step is: waiting for the student's action, running (simulated time passes to show the
/// effect), asking its question, or done.
enum class StepPhase { Action, Running, Question, Done };
const char* phaseName(StepPhase phase);
/// A measured value as lessons print it: "62567", "18.6", "0.307".
std::string formatMeasured(double value);

/// One claim (`expect`) of a step, evaluated at the end of its run.
struct ClaimResult {
    std::string text;
    bool held = false;
    std::string detail; ///< the measured values, or why they could not be measured
};

/// What checking an answer says.
struct AnswerCheck {
    bool right = false;
    std::string feedback; ///< "right: 14.2 MiB was measured", "not quite: the run measured 14.2 MiB (yours 3)"
};

class LessonRun {
public:
    explicit LessonRun(Lesson lesson);

    const Lesson& lesson() const { return m_lesson; }
    std::size_t stepIndex() const { return m_index; }
    const LessonStep& step() const { return m_lesson.steps[m_index]; }
    StepPhase phase() const { return m_phase; }
    bool finished() const { return m_finished; }
    /// Steps done (answered, or skipped) out of the lesson's steps.
    std::size_t completedSteps() const { return m_completed; }
    bool stepSkipped(std::size_t index) const { return index < m_skipped.size() && m_skipped[index]; }

    /// (Re)starts on step one from the engine's state now; sets the lesson's sampling interval.
    engine::CommandResult begin(engine::Engine& engine);
    /// An event the engine drained. A PMU capture started by anyone (PmuCaptureStarted: the GUI's PMU controls, another
    /// front end) that matches the waiting step's `pmu` action becomes the lesson's capture at the next update(), as
    /// if the lesson had started it.
    void observe(const engine::EngineEvent& event);
    /// Simulated time has passed: detects the action, ends the step's run and measures.
    void update(engine::Engine& engine);
    /// Performs the step's action through the engine (what --check and "Do it for me" do).
    engine::CommandResult perform(engine::Engine& engine);

    /// Simulated ns left in the step's run (0 when not running).
    std::uint64_t runLeftNs(std::uint64_t nowNs) const;
    /// The claims, once the step has run.
    const std::vector<ClaimResult>& claims() const { return m_claims; }
    /// The measured answer of a number question (once the step has run), or why it was not measured.
    Result<double> measuredAnswer() const;
    /// Indices of the choices whose condition holds in this run (once the step has run).
    std::vector<std::size_t> rightChoices() const;
    AnswerCheck answerNumber(double value);
    AnswerCheck answerChoice(std::size_t index);
    /// The next hint (cycling), "" when the step has none.
    std::string nextHint();

    /// Leaves the step unanswered (counts as skipped) and moves on.
    void skip(engine::Engine& engine);
    /// Moves on after a done step.
    void next(engine::Engine& engine);
    const RunMeasurements& measurements() const { return m_measure; }
    /// The lesson closes: stops its PMU capture, so none is left running on the engine (its report stays).
    void end(engine::Engine& engine) { stopPmu(engine); }
    /// The lesson's PMU capture while one runs, and what the engine said when it started.
    std::optional<std::uint32_t> pmuCapture() const { return m_pmuId; }
    const engine::PmuCaptureInfo& pmuCaptureInfo() const { return m_pmuInfo; }
    engine::PmuCaptureKind pmuCaptureKind() const { return m_pmuKind; }
    /// False for a capture the lesson adopted (started elsewhere, see observe()): whoever started it pumps it and
    /// takes its batches; the lesson reads its report and stops it when the lesson moves on or closes.
    bool pmuCaptureOwned() const { return m_pmuOwned; }
    /// A GUI shows the lesson's captures on its PMU pages: they keep their samples (PmuRequest::keepSamples), and
    /// while `taken` the run leaves the batches in the engine for the page to take instead of dropping them.
    void setKeepPmuSamples(bool keep) { m_keepSamples = keep; }
    void setPmuBatchesTakenElsewhere(bool taken) { m_batchesTaken = taken; }

private:
    void enterStep(engine::Engine& engine);
    /// The step's run begins: what the capture has counted so far is not the step's (tmaSince).
    void markRunStart(engine::Engine& engine);
    void endRun(engine::Engine& engine, std::uint64_t nowNs);
    bool actionDone();
    engine::CommandResult startPmu(engine::Engine& engine);
    /// Takes a capture someone else started that does what the waiting step's action asks (adoptStartedCaptures).
    void adoptStartedCaptures(engine::Engine& engine);
    void stopPmu(engine::Engine& engine);
    /// Runs the capture on as simulated time passes, and reads its counters (TMA).
    void pumpPmu(engine::Engine& engine);

    Lesson m_lesson;
    RunMeasurements m_measure;
    std::size_t m_index = 0;
    StepPhase m_phase = StepPhase::Action;
    bool m_finished = false;
    std::size_t m_completed = 0;
    std::vector<bool> m_skipped;
    std::uint64_t m_runFromNs = 0;
    std::vector<ClaimResult> m_claims;
    std::size_t m_hint = 0;
    std::optional<std::uint32_t> m_pmuId; ///< the lesson's simulated PMU capture (one at a time)
    engine::PmuCaptureInfo m_pmuInfo;
    engine::PmuCaptureKind m_pmuKind = engine::PmuCaptureKind::Tma;
    bool m_pmuOwned = true;
    std::vector<pmu::TmaBreakdown> m_tmaAtRunStart; ///< the capture's TMA totals when the step's run began
    std::vector<engine::PmuCaptureStarted> m_started; ///< observed since the last update
    bool m_keepSamples = false;
    bool m_batchesTaken = false;
};

} // namespace rdt::lesson

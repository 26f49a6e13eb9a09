// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonRun.h"

#include "MountedMachine.h"
#include "PmuMeasurements.h"
#include "ShellCommand.h"
#include "core/Text.h"
#include "rdt/Schemata.h"
#include "sim/Scenario.h"

#include <cerrno>
#include <cmath>
#include <utility>
#include <variant>

namespace rdt::lesson {

const char* phaseName(StepPhase phase)
{
    switch (phase) {
    case StepPhase::Action:
        return "waiting for the action";
    case StepPhase::Running:
        return "running";
    case StepPhase::Question:
        return "question";
    case StepPhase::Done:
        return "done";
    }
    return "?";
}

std::string formatMeasured(double value)
{
    // Bandwidths in MB/s read best whole; occupancies and ratios with three significant digits.
    return std::fabs(value) >= 1000 ? formatString("%.0f", value) : formatString("%.3g", value);
}

LessonRun::LessonRun(Lesson lesson)
    : m_lesson(std::move(lesson))
{ }

namespace {

/// Slices (about 1M simulated cycles each, SimPmuCapture) a lesson's PMU capture runs per update: enough samples
/// in a step of a few seconds, little enough for the GUI's frame.
constexpr int kPmuPumpsPerUpdate = 4;

engine::PmuCaptureKind captureKind(const std::string& recipe)
{
    if (recipe == "lbr") return engine::PmuCaptureKind::LbrAny;
    if (recipe == "lbr-callstack") return engine::PmuCaptureKind::LbrCallStack;
    if (recipe == "mem") return engine::PmuCaptureKind::LoadLatency;
    return engine::PmuCaptureKind::Tma;
}

/// The program a request runs, by the name SimProgram::named takes ("" and "server" are the same program).
std::string programName(const std::string& program)
{
    return program.empty() ? "server" : program;
}

/// Whether a capture started elsewhere does what `action` asks: the simulated PMU, the same recipe (or the GUI's
/// default All, which holds TMA, LBR call stacks and load latency), program, working-set scale and, for load
/// latency, threshold. A live capture never matches: a lesson measures its simulated machine.
bool matchesAction(const engine::PmuRequest& request, const LessonAction& action)
{
    if (!request.simulated) return false;
    const auto wanted = captureKind(action.pmuRecipe);
    const bool recipe = request.kind == wanted
        || (request.kind == engine::PmuCaptureKind::All && wanted != engine::PmuCaptureKind::LbrAny);
    const bool loads = wanted == engine::PmuCaptureKind::LoadLatency;
    // A step that runs the program in a group's class of service wants a capture that follows that group's mask.
    const std::string group = action.pmuGroup.empty() ? "" : groupPath(action.pmuGroup);
    return recipe && programName(request.program) == programName(action.pmuProgram) && request.catGroup == group
        && std::fabs(request.memoryScale - action.pmuScale) < 1e-9 && (!loads || request.ldlat == action.pmuLdlat);
}

} // namespace

engine::CommandResult LessonRun::begin(engine::Engine& engine)
{
    if (m_lesson.rdtSource == "resctrl") { // only the mounted simulated machine, never a real one (MountedMachine.h)
        if (auto mounted = requireMountedMachine(m_lesson); !mounted)
            return engine::CommandResult::failure(mounted.error());
        auto snapshot = engine.snapshot();
        if (!snapshot.result.ok) return snapshot.result;
        if (auto served = requireScenarioGroups(m_lesson, snapshot); !served)
            return engine::CommandResult::failure(served.error());
    }
    stopPmu(engine);
    if (m_lesson.startCdp)
        if (auto c = engine.setCdp(*m_lesson.startCdp); !c.ok) return c;
    auto r = engine.setSamplingInterval(m_lesson.samplingNs);
    auto snapshot = engine.snapshot();
    if (!snapshot.result.ok) return snapshot.result;
    m_measure.reset(snapshot, engine.samplingIntervalNs());
    m_index = 0;
    m_completed = 0;
    m_finished = false;
    m_skipped.assign(m_lesson.steps.size(), false);
    m_started.clear(); // captures started before the lesson (re)starts are not its own
    enterStep(engine);
    return r;
}

void LessonRun::enterStep(engine::Engine& engine)
{
    m_claims.clear();
    m_hint = 0;
    m_runFromNs = engine.nowNs();
    m_phase = step().doneWhen ? StepPhase::Action : StepPhase::Running;
    // A step that asks for a capture waits for its own: the one an earlier step started does not do what it asks.
    if (step().action.kind == LessonAction::Kind::Pmu) m_measure.setPmuRunning(false);
    if (m_phase == StepPhase::Running) markRunStart(engine);
}

void LessonRun::markRunStart(engine::Engine& engine)
{
    m_tmaAtRunStart.clear();
    if (!m_pmuId) return;
    if (auto report = engine.pmuReport(*m_pmuId, 0)) m_tmaAtRunStart = std::move(report->tmaTotals);
}

void LessonRun::observe(const engine::EngineEvent& event)
{
    if (const auto* started = std::get_if<engine::PmuCaptureStarted>(&event)) m_started.push_back(*started);
    m_measure.observe(event);
}

void LessonRun::adoptStartedCaptures(engine::Engine& engine)
{
    auto started = std::exchange(m_started, {});
    if (m_finished || m_phase != StepPhase::Action || step().action.kind != LessonAction::Kind::Pmu) return;
    for (const auto& s : started) {
        if (s.info.id == m_pmuId || !matchesAction(s.request, step().action)) continue; // its own, or another recipe
        stopPmu(engine); // one capture at a time, as startPmu
        m_pmuId = s.info.id;
        m_pmuInfo = s.info;
        m_pmuKind = s.request.kind;
        m_pmuOwned = false;
        m_measure.setPmuRunning(true);
    }
}

bool LessonRun::actionDone()
{
    m_measure.setWindow(m_runFromNs, ~std::uint64_t(0));
    auto held = step().doneWhen->evaluate(m_measure);
    return held && *held;
}

void LessonRun::update(engine::Engine& engine)
{
    if (m_finished) return;
    const auto now = engine.nowNs();
    adoptStartedCaptures(engine);
    if (m_phase == StepPhase::Action) {
        m_measure.refresh(engine.snapshot(), engine.samplingIntervalNs());
        if (actionDone()) {
            // How long the step waited for its action ($waited): a refused action tried until it succeeds.
            m_measure.setVariable("waited", double(now - m_runFromNs) * 1e-9);
            m_phase = StepPhase::Running;
            m_runFromNs = now;
            markRunStart(engine);
        }
    }
    pumpPmu(engine);
    if (m_phase == StepPhase::Running && now >= m_runFromNs + step().runNs) endRun(engine, now);
}

engine::CommandResult LessonRun::startPmu(engine::Engine& engine)
{
    stopPmu(engine); // one capture at a time: a step's figures are its own capture's
    const auto& a = step().action;
    engine::PmuRequest request;
    request.kind = captureKind(a.pmuRecipe);
    request.simulated = true;
    request.ldlat = a.pmuLdlat;
    request.memoryScale = a.pmuScale;
    request.program = a.pmuProgram;
    request.keepSamples = m_keepSamples;
    if (!a.pmuGroup.empty()) {
        // The program runs in the group's class of service on a copy of the lesson's machine (its preset's caches
        // and PMU), so the group's mask is the program's LLC capacity; without a group the PMU's own caches serve it.
        auto scenario = sim::loadScenario(m_lesson.scenario);
        if (!scenario) return engine::CommandResult::failure(scenario.error());
        request.machine = scenario->preset;
        request.catGroup = groupPath(a.pmuGroup);
    }
    auto started = engine.startPmu(request);
    if (!started.result.ok) return started.result;
    m_pmuId = started.info.id;
    m_pmuInfo = started.info;
    m_pmuKind = request.kind;
    m_pmuOwned = true;
    m_measure.setPmuRunning(true);
    return started.result;
}

void LessonRun::stopPmu(engine::Engine& engine)
{
    if (!m_pmuId) return;
    (void)engine.stopPmu(*m_pmuId);
    if (m_pmuOwned && !m_batchesTaken) (void)engine.drainPmuBatches();
    m_pmuId.reset();
    m_measure.setPmuRunning(false);
}

void LessonRun::pumpPmu(engine::Engine& engine)
{
    if (!m_pmuId || !m_pmuOwned) return; // an adopted capture is pumped by whoever started it
    for (int i = 0; i < kPmuPumpsPerUpdate; ++i)
        (void)engine.pumpPmu(*m_pmuId);
    (void)engine.readPmuCounters(*m_pmuId); // a TMA capture's totals add up its intervals; others ignore it
    // The lesson reads the report; the batches' rows are for a PMU page that shows the capture, if one takes them.
    if (!m_batchesTaken) (void)engine.drainPmuBatches();
}

void LessonRun::endRun(engine::Engine& engine, std::uint64_t nowNs)
{
    if (m_pmuId) {
        auto report = engine.pmuReport(*m_pmuId, 50);
        if (report) // the step's own slots: a capture that ran before the step (another step's) does not dilute them
            for (std::size_t i = 0; i < report->tmaTotals.size() && i < m_tmaAtRunStart.size(); ++i)
                report->tmaTotals[i] = tmaSince(report->tmaTotals[i], m_tmaAtRunStart[i]);
        m_measure.setPmuReport(report ? std::optional(std::move(*report)) : std::nullopt);
    }
    const auto& s = step();
    const auto window = std::min(s.windowNs, nowNs - m_runFromNs);
    m_measure.setWindow(nowNs - window, nowNs);
    for (const auto& r : s.remember) {
        auto v = r.value.evaluate(m_measure);
        if (v) m_measure.setVariable(r.name, *v);
    }
    m_claims.clear();
    for (const auto& c : s.expect) {
        ClaimResult claim { c.text, false, {} };
        auto held = c.evaluate(m_measure);
        if (!held) {
            claim.detail = held.error().message;
        } else {
            claim.held = *held;
            auto l = c.left.evaluate(m_measure);
            auto r = c.right.evaluate(m_measure);
            claim.detail = "measured " + formatMeasured(l ? *l : 0.0) + " " + c.op + " " + formatMeasured(r ? *r : 0.0);
        }
        m_claims.push_back(claim);
    }
    m_phase = s.question.kind == LessonQuestion::Kind::None ? StepPhase::Done : StepPhase::Question;
}

std::uint64_t LessonRun::runLeftNs(std::uint64_t nowNs) const
{
    if (m_phase != StepPhase::Running) return 0;
    const auto end = m_runFromNs + step().runNs;
    return end > nowNs ? end - nowNs : 0;
}

Result<double> LessonRun::measuredAnswer() const
{
    if (m_phase != StepPhase::Question && m_phase != StepPhase::Done)
        return makeError("the step has not run yet", "perform the step's action and let it run");
    return step().question.answer.evaluate(m_measure);
}

std::vector<std::size_t> LessonRun::rightChoices() const
{
    std::vector<std::size_t> right;
    if (m_phase != StepPhase::Question && m_phase != StepPhase::Done) return right;
    const auto& choices = step().question.choices;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        auto held = choices[i].when.evaluate(m_measure);
        if (held && *held) right.push_back(i);
    }
    return right;
}

AnswerCheck LessonRun::answerNumber(double value)
{
    auto measured = measuredAnswer();
    if (!measured) return { false, "cannot grade yet: " + measured.error().message };
    const auto& q = step().question;
    const double allowed = q.absoluteTolerance ? q.tolerance : std::fabs(*measured) * q.tolerance;
    const bool right = std::fabs(value - *measured) <= allowed;
    const std::string unit = q.unit.empty() ? "" : " " + q.unit;
    if (right) m_phase = StepPhase::Done;
    return { right,
        right ? "right: this run measured " + formatMeasured(*measured) + unit
              : "not quite: " + formatMeasured(value) + unit
                + " is not within the tolerance of what this run measured; look again" };
}

AnswerCheck LessonRun::answerChoice(std::size_t index)
{
    const auto right = rightChoices();
    if (m_phase != StepPhase::Question && m_phase != StepPhase::Done)
        return { false, "cannot grade yet: the step has not run" };
    const bool ok = right.size() == 1 && right.front() == index;
    if (ok) m_phase = StepPhase::Done;
    return { ok, ok ? "right: that is what this run measured" : "not quite: look at the measurements again" };
}

std::string LessonRun::nextHint()
{
    const auto& hints = step().hints;
    if (hints.empty()) return {};
    return hints[m_hint++ % hints.size()];
}

void LessonRun::skip(engine::Engine& engine)
{
    if (m_finished) return;
    m_skipped[m_index] = true;
    m_phase = StepPhase::Done;
    next(engine);
}

void LessonRun::next(engine::Engine& engine)
{
    if (m_finished || m_phase != StepPhase::Done) return;
    ++m_completed;
    if (m_index + 1 >= m_lesson.steps.size()) {
        m_finished = true;
        return;
    }
    ++m_index;
    enterStep(engine);
}

engine::CommandResult LessonRun::perform(engine::Engine& engine)
{
    const auto& a = step().action;
    switch (a.kind) {
    case LessonAction::Kind::None:
        return engine::CommandResult::success();
    case LessonAction::Kind::Alloc: {
        // "\n" between lines sets several resources at once (CDP's L3CODE and L3DATA), as in a scenario's write.
        std::string text = a.schemata;
        for (auto at = text.find("\\n"); at != std::string::npos; at = text.find("\\n", at))
            text.replace(at, 2, "\n");
        auto schemata = Schemata::parseStrict(text);
        if (!schemata) return engine::CommandResult::failure(schemata.error());
        auto r = engine.applyAllocation(groupPath(a.group), *schemata);
        return r.result;
    }
    case LessonAction::Kind::Sampling:
        return engine.setSamplingInterval(a.intervalNs);
    case LessonAction::Kind::Mkdir:
        return engine.createGroup(a.group);
    case LessonAction::Kind::Rmdir:
        return engine.deleteGroup(a.group);
    case LessonAction::Kind::Pmu:
        return startPmu(engine);
    case LessonAction::Kind::Cdp:
        return engine.setCdp(a.cdpOn);
    case LessonAction::Kind::Run: {
        // The student's command on the mounted machine (pqos ...); the step sees its effect in the tree.
        if (auto mounted = requireMountedMachine(m_lesson); !mounted)
            return engine::CommandResult::failure(mounted.error());
        auto ran = runShellCommand(a.command);
        if (!ran) return engine::CommandResult::failure(ran.error());
        std::string last = ran->output;
        while (!last.empty() && (last.back() == '\n' || last.back() == ' '))
            last.pop_back();
        last = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
        if (ran->exitCode != 0)
            return engine::CommandResult::failure(errnoError(EINVAL,
                "'" + a.command + "' exited with status " + std::to_string(ran->exitCode)
                    + (last.empty() ? "" : ": " + last),
                "run it yourself to see its whole output"));
        return engine::CommandResult::success(last.empty() ? std::vector<std::string> {} : std::vector { last });
    }
    }
    return engine::CommandResult::success();
}

} // namespace rdt::lesson

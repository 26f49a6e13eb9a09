// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonParser.h"

#include "EmbeddedLessons.h"
#include "api/SourceSpec.h"
#include "core/BoundedFile.h"
#include "core/Text.h"
#include "sim/Scenario.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace rdt::lesson {

namespace {

/// The parse of one file: the current line for messages, the step being filled.
class LessonReader {
public:
    explicit LessonReader(std::string name)
        : m_name(std::move(name))
    { }

    Result<Lesson> read(const std::string& text)
    {
        std::istringstream in(text);
        std::string raw;
        while (std::getline(in, raw)) {
            ++m_line;
            const std::string line(trim(raw));
            if (line.empty() || line[0] == '#') continue;
            const auto space = line.find_first_of(" \t");
            const std::string key = line.substr(0, space);
            const std::string rest = space == std::string::npos ? "" : std::string(trim(line.substr(space)));
            if (auto st = handle(key, rest); !st) return st.error();
        }
        if (auto st = finishStep(); !st) return st.error();
        return finish();
    }

private:
    Error fail(const std::string& what, const std::string& advice = {}) const
    {
        return makeError(m_name + ":" + std::to_string(m_line) + ": " + what,
            advice.empty() ? "see docs/LESSONS.md for the lesson format" : advice);
    }
    Status need(const std::string& key, const std::string& rest) const
    {
        if (rest.empty()) return fail("'" + key + "' needs a value");
        return {};
    }
    LessonStep* step() { return m_lesson.steps.empty() ? nullptr : &m_lesson.steps.back(); }

    Result<std::uint64_t> duration(const std::string& text) const
    {
        auto d = sim::parseDuration(text);
        if (!d) return fail(d.error().message, "durations look like 500ms, 10s, 1.5s, 2m");
        return *d;
    }
    Result<Expr> expr(const std::string& text) const
    {
        auto e = parseExpr(text);
        if (!e) return fail(e.error().message, e.error().advice);
        return e;
    }
    Result<Condition> condition(const std::string& text) const
    {
        auto c = parseCondition(text);
        if (!c) return fail(c.error().message, c.error().advice);
        return c;
    }

    Status header(const std::string& key, const std::string& rest)
    {
        if (auto st = need(key, rest); !st) return st;
        if (key == "lesson") m_lesson.name = rest;
        if (key == "title") m_lesson.title = rest;
        if (key == "concept") m_lesson.conceptText = rest;
        if (key == "scenario") {
            auto sc = sim::loadScenario(rest);
            if (!sc) return fail("scenario '" + rest + "': " + sc.error().message, sc.error().advice);
            m_lesson.scenario = rest;
        }
        if (key == "source") {
            const auto spec = api::parseSourceSpec(rest);
            // `resctrl` without a path: the simulated machine mounted by `sim --namespace` (openLessonEngine checks).
            if (!spec || (!spec->simulated() && rest != "resctrl") || !spec->path.empty())
                return fail("source '" + rest + "' is not a simulated source",
                    "source sim, source sim-msr, or source resctrl (the simulated machine sim --namespace mounts)");
            m_lesson.rdtSource = rest;
        }
        if (key == "cdp") {
            if (rest != "on" && rest != "off") return fail("cdp '" + rest + "': on or off", "cdp on or cdp off");
            m_lesson.startCdp = rest == "on";
        }
        if (key == "sampling") {
            auto d = duration(rest);
            if (!d) return d.error();
            m_lesson.samplingNs = *d;
        }
        return {};
    }

    Status action(LessonStep& s, const std::string& rest)
    {
        std::istringstream in(rest);
        std::string verb, arg;
        in >> verb >> arg;
        std::string tail;
        std::getline(in, tail);
        tail = std::string(trim(tail));
        s.action.text = rest;
        if (verb == "alloc" && !arg.empty() && !tail.empty()) {
            s.action.kind = LessonAction::Kind::Alloc;
            s.action.group = arg;
            s.action.schemata = tail;
        } else if (verb == "sampling" && !arg.empty() && tail.empty()) {
            auto d = duration(arg);
            if (!d) return d.error();
            s.action.kind = LessonAction::Kind::Sampling;
            s.action.intervalNs = *d;
        } else if ((verb == "mkdir" || verb == "rmdir") && !arg.empty() && tail.empty()) {
            s.action.kind = verb == "mkdir" ? LessonAction::Kind::Mkdir : LessonAction::Kind::Rmdir;
            s.action.group = arg;
        } else if (verb == "cdp" && (arg == "on" || arg == "off") && tail.empty()) {
            s.action.kind = LessonAction::Kind::Cdp;
            s.action.cdpOn = arg == "on";
        } else if (verb == "pmu" && (arg == "tma" || arg == "lbr" || arg == "lbr-callstack" || arg == "mem")) {
            s.action.kind = LessonAction::Kind::Pmu;
            s.action.pmuRecipe = arg;
            std::istringstream opts(tail);
            for (std::string kv; opts >> kv;) {
                const auto eq = kv.find('=');
                const std::string key = kv.substr(0, eq), value = eq == std::string::npos ? "" : kv.substr(eq + 1);
                char* end = nullptr;
                const double number = std::strtod(value.c_str(), &end);
                const bool isNumber = !value.empty() && end && *end == '\0';
                if (key == "program" && !value.empty())
                    s.action.pmuProgram = value;
                else if (key == "scale" && isNumber && number >= 0.01 && number <= 100)
                    s.action.pmuScale = number;
                else if (key == "ldlat" && isNumber && number >= 1 && number <= 65535)
                    s.action.pmuLdlat = static_cast<unsigned>(number);
                else if (key == "group" && !value.empty())
                    s.action.pmuGroup = value;
                else
                    return fail("cannot read '" + kv + "' of action '" + rest + "'",
                        "pmu options: program=server|frontend|backend, scale=0.01..100, ldlat=1..65535, group=G");
            }
        } else if (verb == "run" && !arg.empty()) {
            if (m_lesson.rdtSource != "resctrl")
                return fail("action 'run' needs 'source resctrl'",
                    "a command runs on the simulated machine mounted by rdtscope-cli sim --namespace; put "
                    "'source resctrl' in the header");
            s.action.kind = LessonAction::Kind::Run;
            s.action.command = std::string(trim(rest.substr(rest.find("run") + 3)));
        } else {
            return fail("cannot read action '" + rest + "'",
                "actions: alloc GROUP SCHEMATA-LINE, sampling DURATION, mkdir GROUP, rmdir GROUP, cdp on|off, "
                "pmu tma|lbr|lbr-callstack|mem [program=P] [scale=X] [ldlat=N] [group=G], run COMMAND");
        }
        return {};
    }

    Status answer(LessonStep& s, const std::string& rest)
    {
        // answer EXPR [within N%|N] [unit U]
        std::string e = rest;
        auto cut = [&](const std::string& word) {
            const auto at = e.find(" " + word + " ");
            if (at == std::string::npos) return std::string();
            std::string value(trim(e.substr(at + word.size() + 2)));
            e = e.substr(0, at);
            return value;
        };
        const std::string unit = cut("unit");
        const std::string within = cut("within");
        auto parsed = expr(std::string(trim(e)));
        if (!parsed) return parsed.error();
        s.question.answer = *parsed;
        s.question.unit = unit;
        if (!within.empty()) {
            const bool percent = within.back() == '%';
            auto v = parseFiniteDouble(percent ? within.substr(0, within.size() - 1) : within);
            if (!v || *v < 0) return fail("tolerance '" + within + "' is not a number", "within 10% or within 0.5");
            s.question.tolerance = percent ? *v / 100.0 : *v;
            s.question.absoluteTolerance = !percent;
        }
        return {};
    }

    Status inStep(LessonStep& s, const std::string& key, const std::string& rest)
    {
        if (key == "text") {
            // Lines join with a blank; an empty `text` line starts a new paragraph.
            if (rest.empty())
                s.text += s.text.empty() ? "" : "\n";
            else
                s.text += (s.text.empty() || s.text.back() == '\n' ? "" : " ") + rest;
            return {};
        }
        if (auto st = need(key, rest); !st) return st;
        if (key == "explain") {
            std::istringstream in(rest);
            for (std::string topic; in >> topic;)
                s.explain.push_back(topic);
        } else if (key == "look") {
            std::istringstream in(rest);
            LessonLook look;
            in >> look.view;
            for (std::string g; in >> g;)
                look.groups.push_back(g);
            s.look = look;
        } else if (key == "action") {
            return action(s, rest);
        } else if (key == "done-when" || key == "expect") {
            auto c = condition(rest);
            if (!c) return c.error();
            if (key == "done-when")
                s.doneWhen = *c;
            else
                s.expect.push_back(*c);
        } else if (key == "run" || key == "window") {
            auto d = duration(rest);
            if (!d) return d.error();
            (key == "run" ? s.runNs : s.windowNs) = *d;
        } else if (key == "remember") {
            const auto eq = rest.find('=');
            if (eq == std::string::npos) return fail("remember needs NAME = EXPR");
            auto e = expr(std::string(trim(rest.substr(eq + 1))));
            if (!e) return e.error();
            s.remember.push_back({ std::string(trim(rest.substr(0, eq))), *e });
        } else if (key == "question") {
            const auto space = rest.find(' ');
            const std::string kind = rest.substr(0, space);
            if ((kind != "number" && kind != "choice") || space == std::string::npos)
                return fail("question must be 'question number TEXT' or 'question choice TEXT'");
            s.question.kind = kind == "number" ? LessonQuestion::Kind::Number : LessonQuestion::Kind::Choice;
            s.question.text = std::string(trim(rest.substr(space)));
        } else if (key == "answer") {
            return answer(s, rest);
        } else if (key == "choice") {
            const auto at = rest.find(" when ");
            if (at == std::string::npos) return fail("choice needs TEXT when CONDITION");
            auto c = condition(rest.substr(at + 6));
            if (!c) return c.error();
            s.question.choices.push_back({ std::string(trim(rest.substr(0, at))), *c });
        } else if (key == "hint") {
            s.hints.push_back(rest);
        } else {
            return fail("unknown keyword '" + key + "'",
                "step keywords: text explain look action done-when run window remember expect question answer "
                "choice hint");
        }
        return {};
    }

    Status handle(const std::string& key, const std::string& rest)
    {
        static const char* headers[] = { "lesson", "title", "concept", "scenario", "source", "sampling", "cdp" };
        for (const char* h : headers)
            if (key == h) {
                if (step()) return fail("'" + key + "' belongs before the first step");
                return header(key, rest);
            }
        if (key == "step") {
            if (auto st = finishStep(); !st) return st;
            if (auto st = need(key, rest); !st) return st;
            LessonStep s;
            s.title = rest;
            s.line = m_line;
            m_lesson.steps.push_back(s);
            return {};
        }
        if (!step())
            return fail("unknown keyword '" + key + "' before the first step",
                "header keywords: lesson title concept scenario source sampling cdp; then 'step TITLE'");
        return inStep(*step(), key, rest);
    }

    /// What a step must have, checked when the next step starts (errors name the step's line).
    Status finishStep()
    {
        LessonStep* s = step();
        if (!s) return {};
        const int keep = m_line;
        m_line = s->line;
        auto failStep = [&](const std::string& what) {
            Error e = fail("step '" + s->title + "': " + what);
            m_line = keep;
            return e;
        };
        if (s->action.kind != LessonAction::Kind::None && !s->doneWhen)
            return failStep("an action needs a done-when condition that detects it");
        if (s->question.kind == LessonQuestion::Kind::Number && !s->question.answer.valid())
            return failStep("a number question needs an 'answer EXPR' line");
        if (s->question.kind == LessonQuestion::Kind::Choice && s->question.choices.size() < 2)
            return failStep("a choice question needs at least two 'choice TEXT when CONDITION' lines");
        if (s->question.kind == LessonQuestion::Kind::None
            && (s->question.answer.valid() || !s->question.choices.empty()))
            return failStep("'answer' or 'choice' without a 'question' line");
        if (s->text.empty()) return failStep("a step needs text");
        m_line = keep;
        return {};
    }

    Result<Lesson> finish()
    {
        const char* missing = m_lesson.name.empty() ? "lesson"
            : m_lesson.title.empty()                ? "title"
            : m_lesson.conceptText.empty()          ? "concept"
            : m_lesson.scenario.empty()             ? "scenario"
                                                    : nullptr;
        if (missing) return fail(std::string("the '") + missing + "' line is missing");
        if (m_lesson.steps.empty()) return fail("a lesson needs at least one step");
        return m_lesson;
    }

    std::string m_name;
    int m_line = 0;
    Lesson m_lesson;
};

} // namespace

Result<Lesson> parseLesson(const std::string& text, const std::string& name)
{
    return LessonReader(name).read(text);
}

std::vector<std::string> builtinLessonNames()
{
    std::vector<std::string> names;
    for (const auto& l : embeddedLessons())
        names.push_back(l.name);
    return names;
}

Result<Lesson> loadLesson(const std::string& nameOrPath)
{
    for (const auto& l : embeddedLessons())
        if (l.name == nameOrPath) {
            auto lesson = parseLesson(l.text, l.name);
            if (lesson) lesson->source = "built-in";
            return lesson;
        }
    if (::access(nameOrPath.c_str(), F_OK) != 0) {
        std::string names;
        for (const auto& n : builtinLessonNames())
            names += (names.empty() ? "" : ", ") + n;
        return errnoError(ENOENT, "no built-in lesson or readable file '" + nameOrPath + "'",
            "built-in lessons: " + names + " (rdtscope-cli lesson --list)");
    }
    // A lesson is a few pages of text; 1 MiB keeps /dev/zero and stray binaries out.
    auto text = readBoundedFile(nameOrPath, 1u << 20, "lesson");
    if (!text) return text.error();
    auto lesson = parseLesson(*text, nameOrPath);
    if (lesson) lesson->source = nameOrPath;
    return lesson;
}

} // namespace rdt::lesson

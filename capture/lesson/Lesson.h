// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A lesson: a guided exercise on the simulated machine (format: docs/LESSONS.md). Plain data, parsed from text by
// LessonParser.h, played by LessonRun.h (the GUI's Lessons panel and `rdtscope-cli lesson NAME --check` share it).

#include "LessonExpr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt::lesson {

/// What the student does in a step; `--check` performs it through the engine, the GUI lets the student do it.
struct LessonAction {
    enum class Kind { None, Alloc, Sampling, Mkdir, Rmdir, Pmu, Cdp, Run };
    Kind kind = Kind::None;
    std::string group; ///< Alloc, Mkdir, Rmdir
    std::string schemata; ///< Alloc: one schemata line, "L3:0=003"
    std::uint64_t intervalNs = 0; ///< Sampling
    bool cdpOn = true; ///< Cdp: `cdp on` or `cdp off` (the engine remounts the simulated resctrl)
    // Pmu: a recipe on the simulated PMU (`pmu tma program=frontend scale=8 ldlat=30`).
    std::string pmuRecipe; ///< tma, lbr (any branch), lbr-callstack, mem (load latency)
    std::string pmuProgram; ///< the synthetic program: "" (the request server), frontend, backend
    double pmuScale = 1; ///< multiplies the program's working sets
    unsigned pmuLdlat = 30; ///< mem: the load latency threshold in cycles
    /// The group whose class of service the program runs in: the capture runs on the lesson machine's caches with
    /// that group's L3 mask (PmuRequest::catGroup); "" = the simulated PMU's own caches.
    std::string pmuGroup;
    /// Run: a shell command the student types on the mounted machine (`pqos -I -e "llc:1=0x3"`); `--check` runs it
    /// with /bin/sh. Only in `source resctrl` lessons, whose commands run inside `rdtscope-cli sim --namespace`.
    std::string command;
    std::string text; ///< the line as written, for "do it for me" and reports
};

/// One answer of a multiple-choice question: right when its condition holds in this run.
struct LessonChoice {
    std::string text;
    Condition when;
};

struct LessonQuestion {
    enum class Kind { None, Number, Choice };
    Kind kind = Kind::None;
    std::string text;
    Expr answer; ///< Number: the measured value the student's number is compared with
    double tolerance = 0.1; ///< Number: relative (0.1 = 10 %) unless absoluteTolerance
    bool absoluteTolerance = false;
    std::string unit; ///< shown after the number ("MiB")
    std::vector<LessonChoice> choices;
};

/// Where the student should look: a view and the groups to highlight in it.
struct LessonLook {
    std::string view; ///< "timeline", "allocation", "monitor", "machine", "explain"
    std::vector<std::string> groups;
};

/// A value measured at the end of a step and kept under a name ($name in later expressions).
struct LessonRemember {
    std::string name;
    Expr value;
};

struct LessonStep {
    std::string title;
    std::string text;
    std::vector<std::string> explain; ///< Explain panel topics (resources/explain/<topic>.md)
    std::optional<LessonLook> look;
    LessonAction action;
    std::optional<Condition> doneWhen; ///< detects the action from the engine's events (required with an action)
    std::uint64_t runNs = 0; ///< simulated time the step runs (after its action) before it is measured
    std::uint64_t windowNs = 2'000'000'000; ///< measurements average the samples of this last stretch of the run
    std::vector<LessonRemember> remember;
    std::vector<Condition> expect; ///< the lesson's claims, checked against the run
    LessonQuestion question;
    std::vector<std::string> hints;
    int line = 0;
};

struct Lesson {
    std::string name;
    std::string title;
    std::string conceptText; ///< the one concept the lesson teaches (`concept` line)
    std::string scenario; ///< a built-in scenario whose set-up (machine, groups, threads) the lesson runs
    /// `sim` (resctrl emulation), `sim-msr` (the MSRs, raw counters) or `resctrl`: the simulated machine that
    /// `rdtscope-cli sim --namespace --scenario SCENARIO` mounts at /sys/fs/resctrl, read through the real resctrl
    /// backend in real time, so host tools (pqos) can act on it.
    std::string rdtSource = "sim";
    std::uint64_t samplingNs = 1'000'000'000;
    /// `cdp on|off`: L3 CDP at the start (the engine remounts the simulated resctrl, keeping the groups), so a step
    /// can have the student switch it; unset: as the scenario mounts it.
    std::optional<bool> startCdp;
    std::vector<LessonStep> steps;
    std::string source; ///< "built-in" or the file path
};

} // namespace rdt::lesson

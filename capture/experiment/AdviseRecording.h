// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An advisor run in a session file (docs/EXPERIMENTS.md "Recording"): its sweeps as `sweep_steps` (sweep N is the
// N-th group's curve), its phases, each group's proposal, the objective and whether it was applied, and the
// measured change as `advise` markers. Shared by `rdtscope-cli advise --record` and the GUI's Experiments page.

#include "experiment/Advise.h"
#include "experiment/SweepRecording.h"

#include <map>
#include <string>
#include <vector>

namespace rdt::experiment {

class AdviseRecording {
public:
    Status open(engine::Engine& engine, const std::string& file, const AdviseSettings& settings, bool force,
        const SessionOrigin& origin);
    /// The run's samples, events, phases and sweep steps go into the file (the caller's hooks still run first).
    void hook(AdviseHooks& hooks, engine::Engine& engine);
    void mark(engine::Engine& engine, const std::string& text);
    /// The outcome as markers (or the failure's reason), then the file is closed; the error when writing failed.
    Status finish(engine::Engine& engine, const Result<AdviseResult>& result);

private:
    unsigned number(const std::string& group) const;
    SweepRecording m_rec;
    AdviseSettings m_settings;
};

/// A group's measurement, or an unseen one (zeros, `seen` false) when the group was not measured.
GroupMeasure measureOf(const std::map<std::string, GroupMeasure>& m, const std::string& group);
/// 100 * (now - then) / then, 0 when `then` is not positive.
double percentChange(double now, double then);
/// A schemata change on one line ("L3:0=ff;1=ff MB:0=50").
std::string oneLine(const Schemata& change);
/// What a session's `advise` markers say of one group's proposal and, once applied, of its measurement.
std::string proposalMarker(const GroupAdvice& g, const GroupMeasure& now, double knee);
std::string measuredMarker(const GroupAdvice& g, const GroupMeasure& m);

} // namespace rdt::experiment

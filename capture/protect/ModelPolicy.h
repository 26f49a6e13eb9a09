// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `model` (rdtscope's own): instead of stepping towards the right allocation one unit at a time, it measures what
// the protected group needs and jumps there, then adjusts in single steps. The measurement is blame's: when the
// target breaks, the best-effort groups are fenced into their floor for a few intervals (a probe, docs/BLAME.md
// "Probes") and the protected group's occupancy while fenced is its need, the point where its occupancy curve
// flattens; the best-effort groups then get every way but that need plus one (blame's containment rule,
// docs/BLAME.md "Contain"). A later violation at a larger allocation jumps straight back to the measured need; a
// growth step that brings the slack under 0.05 sets a ceiling for a while (docs/PROTECT.md "model").

#include "Policy.h"

#include <optional>

namespace rdt::protect {

class ModelPolicy final : public Policy {
public:
    explicit ModelPolicy(const PolicyTuning& tuning)
        : m_tuning(tuning)
    { }
    std::string name() const override { return "model"; }
    Knobs initial(const KnobLimits& limits, const Knobs& start) override;
    PolicyDecision decide(const IntervalView& now, const KnobLimits& limits) override;
    void reset() override;

    /// Intervals the best-effort groups stay fenced while the protected group's need is measured.
    static constexpr unsigned kFenceIntervals = 4;
    /// Slack above which a best-effort step is given back after the judging intervals (PARTIES waits for 0.2;
    /// the model's jump back on a violation makes a smaller margin safe).
    static constexpr double kGrowSlack = 0.1;

private:
    /// The ways the best-effort groups may keep when the protected group needs `needBytes`.
    unsigned waysLeaving(double needBytes, const KnobLimits& limits) const;

    PolicyTuning m_tuning;
    std::optional<double> m_needBytes;
    unsigned m_fenceLeft = 0;
    unsigned m_goodStreak = 0;
    std::optional<unsigned> m_lastGrowIndex;
    std::optional<unsigned> m_ceiling; ///< best-effort ways not to grow beyond until m_ceilingUntil
    unsigned m_ceilingUntil = 0;
};

} // namespace rdt::protect

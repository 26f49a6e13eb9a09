// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `slack`: a gate on best-effort growth in the manner of Heracles (Lo et al., ISCA 2015). Its top-level controller
// reads the latency-critical service's slack periodically: below 0 it disables best-effort work at once, below 10 %
// it forbids best-effort growth (and below 5 % takes resources back), above that it lets the best-effort tasks grow
// one step at a time; after a violation growth stays off for a while. Here the resources are the best-effort
// groups' ways and MBA value (docs/PROTECT.md "slack").

#include "Policy.h"

namespace rdt::protect {

class SlackPolicy final : public Policy {
public:
    explicit SlackPolicy(const PolicyTuning& tuning)
        : m_tuning(tuning)
    { }
    std::string name() const override { return "slack"; }
    Knobs initial(const KnobLimits& limits, const Knobs& start) override;
    PolicyDecision decide(const IntervalView& now, const KnobLimits& limits) override;
    void reset() override;

private:
    PolicyTuning m_tuning;
    unsigned m_sincePeriod = 0;
    unsigned m_cooldown = 0;
};

} // namespace rdt::protect

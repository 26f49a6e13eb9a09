// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `static`: koordinator's resctrlQOS class policy. The best-effort class is given a fixed range of the L3 ways (0 to
// 30 % in koordinator's example configuration) and an MBA percent, once; nothing moves afterwards, whatever the
// signal says (docs/PROTECT.md "static").

#include "Policy.h"

namespace rdt::protect {

class StaticPolicy final : public Policy {
public:
    explicit StaticPolicy(const PolicyTuning& tuning)
        : m_tuning(tuning)
    { }
    std::string name() const override { return "static"; }
    Knobs initial(const KnobLimits& limits, const Knobs& start) override;
    PolicyDecision decide(const IntervalView& now, const KnobLimits& limits) override;

private:
    PolicyTuning m_tuning;
};

} // namespace rdt::protect

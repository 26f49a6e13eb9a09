// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `fsm`: the upsize/downsize state machine of PARTIES (Chen, Delimitrou, Martinez, ASPLOS 2019), with its published
// constants. Every interval: a service whose slack is below 0.05 is upsized (given one unit of a resource), one whose
// slack is above 0.2 is downsized (one unit taken for others); each action is judged over the next 5 intervals: an
// upsize that did not raise the slack makes the next one try the other resource, a downsize that pushed the slack
// below 0.05 is reverted and no downsizing follows for the wait time (10 s in the paper). With one protected group,
// upsizing it means taking a step from the best-effort groups, downsizing it giving one back; the resources are the
// ways and the MBA value (docs/PROTECT.md "fsm").

#include "KnobSteps.h"
#include "Policy.h"

namespace rdt::protect {

class FsmPolicy final : public Policy {
public:
    explicit FsmPolicy(const PolicyTuning& tuning)
        : m_tuning(tuning)
    { }
    std::string name() const override { return "fsm"; }
    Knobs initial(const KnobLimits& limits, const Knobs& start) override;
    PolicyDecision decide(const IntervalView& now, const KnobLimits& limits) override;
    void reset() override;

private:
    enum class Action { None, Upsize, Downsize };
    PolicyTuning m_tuning;
    Action m_last = Action::None;
    KnobResource m_upResource = KnobResource::Ways;
    KnobResource m_downResource = KnobResource::Ways;
    KnobResource m_lastResource = KnobResource::Ways;
    Knobs m_before; ///< the knobs before the last action (what a revert writes)
    double m_slackBefore = 0;
    unsigned m_judgeLeft = 0;
    unsigned m_waitLeft = 0;
};

} // namespace rdt::protect

// SPDX-License-Identifier: GPL-3.0-or-later
#include "FsmPolicy.h"

namespace rdt::protect {

namespace {

const char* resourceName(KnobResource r)
{
    return r == KnobResource::Ways ? "ways" : "bandwidth";
}

KnobResource other(KnobResource r)
{
    return r == KnobResource::Ways ? KnobResource::Mba : KnobResource::Ways;
}

} // namespace

Knobs FsmPolicy::initial(const KnobLimits& limits, const Knobs& start)
{
    return limits.clamp(start);
}

void FsmPolicy::reset()
{
    m_last = Action::None;
    m_judgeLeft = 0;
    m_waitLeft = m_tuning.waitIntervals;
}

PolicyDecision FsmPolicy::decide(const IntervalView& now, const KnobLimits& limits)
{
    if (m_waitLeft > 0) --m_waitLeft;
    if (!now.slack) return { now.knobs, {} };
    const double slack = *now.slack;
    if (m_judgeLeft > 0 && --m_judgeLeft > 0) return { now.knobs, {} };

    // Judge the last action now that it has had its intervals.
    if (m_last == Action::Downsize && slack < 0.05) {
        m_last = Action::None;
        m_waitLeft = m_tuning.waitIntervals;
        return { m_before,
            slackText(slack) + " after giving " + resourceName(m_lastResource)
                + " to the best-effort groups: reverted, no downsizing during the wait" };
    }
    if (m_last == Action::Upsize && slack <= m_slackBefore) m_upResource = other(m_upResource);
    m_last = Action::None;

    if (slack < 0.05) {
        // Upsize the protected group: take one unit from the best-effort groups, the other resource when this one
        // is at its floor.
        for (int attempt = 0; attempt < 2; ++attempt) {
            const Knobs k = stepKnob(now.knobs, m_upResource, false, limits);
            if (!(k == now.knobs)) {
                m_last = Action::Upsize;
                m_lastResource = m_upResource;
                m_before = now.knobs;
                m_slackBefore = slack;
                m_judgeLeft = m_tuning.judgeIntervals;
                return { k,
                    slackText(slack) + " < 0.05: upsize, one step of " + resourceName(m_upResource)
                        + " taken from the best-effort groups" };
            }
            m_upResource = other(m_upResource);
        }
        return { now.knobs, {} };
    }
    if (slack > 0.2 && m_waitLeft == 0) {
        for (int attempt = 0; attempt < 2; ++attempt) {
            const KnobResource r = m_downResource;
            m_downResource = other(m_downResource); // round robin over the resources
            const Knobs k = stepKnob(now.knobs, r, true, limits);
            if (!(k == now.knobs)) {
                m_last = Action::Downsize;
                m_lastResource = r;
                m_before = now.knobs;
                m_slackBefore = slack;
                m_judgeLeft = m_tuning.judgeIntervals;
                return { k,
                    slackText(slack) + " > 0.2: downsize, one step of " + resourceName(r)
                        + " given to the best-effort groups" };
            }
        }
    }
    return { now.knobs, {} };
}

} // namespace rdt::protect

// SPDX-License-Identifier: GPL-3.0-or-later
#include "SlackPolicy.h"

#include "KnobSteps.h"

namespace rdt::protect {

Knobs SlackPolicy::initial(const KnobLimits& limits, const Knobs& start)
{
    return limits.clamp(start);
}

void SlackPolicy::reset()
{
    m_sincePeriod = 0;
    m_cooldown = m_tuning.slackCooldownIntervals;
}

PolicyDecision SlackPolicy::decide(const IntervalView& now, const KnobLimits& limits)
{
    if (m_cooldown > 0) --m_cooldown;
    if (!now.slack) return { now.knobs, {} };
    const double slack = *now.slack;
    if (slack < 0) {
        // The emergency path runs every interval, not once a period.
        m_cooldown = m_tuning.slackCooldownIntervals;
        m_sincePeriod = 0;
        const Knobs floor = limits.floorKnobs();
        if (floor == now.knobs) return { now.knobs, {} };
        return { floor, slackText(slack) + " < 0: best-effort groups cut to their floor, growth off for a while" };
    }
    if (++m_sincePeriod < m_tuning.slackPeriodIntervals) return { now.knobs, {} };
    m_sincePeriod = 0;
    if (slack < 0.05) {
        const Knobs k = shrinkBestEffort(now.knobs, limits);
        if (k == now.knobs) return { now.knobs, {} };
        return { k, slackText(slack) + " < 0.05: one step taken back from the best-effort groups" };
    }
    if (slack < 0.10 || m_cooldown > 0) return { now.knobs, {} };
    const Knobs k = growBestEffort(now.knobs, limits);
    if (k == now.knobs) return { now.knobs, {} };
    return { k, slackText(slack) + " >= 0.10: best-effort groups may grow one step" };
}

} // namespace rdt::protect

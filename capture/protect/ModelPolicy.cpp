// SPDX-License-Identifier: GPL-3.0-or-later
#include "ModelPolicy.h"

#include "KnobSteps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rdt::protect {

namespace {

std::string mib(double bytes)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
    return buf;
}

} // namespace

Knobs ModelPolicy::initial(const KnobLimits& limits, const Knobs& start)
{
    return limits.clamp(start);
}

void ModelPolicy::reset()
{
    m_fenceLeft = 0;
    m_goodStreak = 0;
    m_lastGrowIndex.reset();
}

unsigned ModelPolicy::waysLeaving(double needBytes, const KnobLimits& limits) const
{
    const auto needWays = static_cast<unsigned>(std::ceil(needBytes / limits.bytesPerWay)) + 1;
    const unsigned left = needWays >= limits.ways ? 0 : limits.ways - needWays;
    return std::max(left, limits.minBeWays);
}

PolicyDecision ModelPolicy::decide(const IntervalView& now, const KnobLimits& limits)
{
    if (!now.slack) return { now.knobs, {} };
    const double slack = *now.slack;
    const bool measurable = limits.bytesPerWay > 0;

    if (m_fenceLeft > 0) {
        if (--m_fenceLeft > 0) return { now.knobs, {} };
        if (!now.lcOccupancyBytes) return { now.knobs, {} };
        m_needBytes = *now.lcOccupancyBytes;
        Knobs k = now.knobs;
        k.beWays = waysLeaving(*m_needBytes, limits);
        m_goodStreak = 0;
        return { limits.clamp(k),
            "with the best-effort groups fenced the protected group holds " + mib(*m_needBytes)
                + ": its need plus one way left to it alone (blame's containment rule)" };
    }
    if (m_ceiling && now.index >= m_ceilingUntil) m_ceiling.reset();

    if (slack < 0.05 && m_lastGrowIndex && now.index - *m_lastGrowIndex <= m_tuning.judgeIntervals + 1
        && now.knobs.beWays > limits.minBeWays) {
        m_ceiling = now.knobs.beWays - 1;
        m_ceilingUntil = now.index + m_tuning.waitIntervals;
    }
    if (slack < 0) {
        m_goodStreak = 0;
        m_lastGrowIndex.reset();
        if (measurable && m_needBytes && waysLeaving(*m_needBytes, limits) < now.knobs.beWays) {
            Knobs k = now.knobs;
            k.beWays = waysLeaving(*m_needBytes, limits);
            return { limits.clamp(k),
                slackText(slack) + " < 0: back to the allocation the measured need (" + mib(*m_needBytes)
                    + ") asks for" };
        }
        if (measurable && now.knobs.beWays > limits.minBeWays) {
            Knobs k = now.knobs;
            k.beWays = limits.minBeWays;
            m_fenceLeft = kFenceIntervals;
            return { limits.clamp(k),
                slackText(slack) + " < 0: measuring the protected group's need, best-effort groups fenced into "
                    + std::to_string(limits.minBeWays) + " way(s) for " + std::to_string(kFenceIntervals)
                    + " intervals (a blame probe)" };
        }
        if (now.knobs.beWays > limits.minBeWays)
            return { shrinkBestEffort(now.knobs, limits), slackText(slack) + " < 0: one way taken back" };
        if (limits.hasMba && now.knobs.beMba && *now.knobs.beMba > limits.mbaMin) {
            Knobs k = now.knobs;
            k.beMba = std::max(limits.mbaMin, *now.knobs.beMba / 2);
            return { limits.clamp(k), slackText(slack) + " < 0 with the ways at their floor: bandwidth halved" };
        }
        return { now.knobs, {} };
    }
    if (slack < 0.05) {
        m_goodStreak = 0;
        const Knobs k = stepKnob(now.knobs, KnobResource::Ways, false, limits);
        if (k == now.knobs) return { now.knobs, {} };
        return { k, slackText(slack) + " < 0.05: one way taken back" };
    }
    if (slack <= kGrowSlack) {
        m_goodStreak = 0;
        return { now.knobs, {} };
    }
    if (++m_goodStreak < m_tuning.judgeIntervals) return { now.knobs, {} };
    m_goodStreak = 0;
    if (limits.hasMba && now.knobs.beMba && *now.knobs.beMba < limits.mbaMax) {
        Knobs k = now.knobs;
        k.beMba = limits.mbaMax;
        return { limits.clamp(k), slackText(slack) + " > 0.1: best-effort bandwidth back to its maximum" };
    }
    if (m_ceiling && now.knobs.beWays >= *m_ceiling) return { now.knobs, {} };
    const Knobs k = stepKnob(now.knobs, KnobResource::Ways, true, limits);
    if (k == now.knobs) return { now.knobs, {} };
    m_lastGrowIndex = now.index;
    return { k, slackText(slack) + " > 0.1: one way given back to the best-effort groups" };
}

} // namespace rdt::protect

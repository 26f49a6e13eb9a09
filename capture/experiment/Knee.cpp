// SPDX-License-Identifier: GPL-3.0-or-later
#include "Knee.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rdt::experiment {

std::string Knee::explain(const std::string& unit) const
{
    if (!found) return "no knee: no steps were measured";
    char buf[200];
    const int pct = static_cast<int>(std::lround(tolerance * 100));
    if (flat)
        std::snprintf(buf, sizeof buf,
            "%g %s: the curve is flat (its range is within %d %% of its values), more buys nothing", x, unit.c_str(),
            pct);
    else
        std::snprintf(buf, sizeof buf, "%g %s: the smallest allocation within %d %% of the curve's range from its best",
            x, unit.c_str(), pct);
    return buf;
}

Knee findKnee(std::vector<CurvePoint> points, Better better, double tolerance)
{
    Knee k;
    k.tolerance = tolerance;
    if (points.empty()) return k;
    std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
    const auto [lo, hi]
        = std::minmax_element(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.y < b.y; });
    k.best = better == Better::Higher ? hi->y : lo->y;
    k.worst = better == Better::Higher ? lo->y : hi->y;
    const double range = std::fabs(k.best - k.worst);
    const double scale = std::max(std::fabs(k.best), std::fabs(k.worst));
    k.found = true;
    k.flat = range <= tolerance * scale;
    const auto& first = points.front();
    if (k.flat) {
        k.x = first.x;
        k.y = first.y;
        return k;
    }
    for (const auto& p : points) {
        if (std::fabs(k.best - p.y) <= tolerance * range) {
            k.x = p.x;
            k.y = p.y;
            return k;
        }
    }
    return k; // unreachable: the best point itself is within any tolerance
}

} // namespace rdt::experiment

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
    if (zero)
        return "no knee: every step read 0 (no traffic in the group while it was measured), so the sweep shows "
               "nothing; is its workload running in the group?";
    const std::string what = x == 1 && unit == "ways" ? "way" : unit;
    if (flat)
        std::snprintf(buf, sizeof buf,
            "%g %s: the curve is flat (its range is within %d %% of its values), more buys nothing", x, what.c_str(),
            pct);
    else
        std::snprintf(buf, sizeof buf, "%g %s: the %s allocation within %d %% of the curve's range from its best", x,
            what.c_str(), largest ? "largest" : "smallest", pct);
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
    k.zero = scale == 0;
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

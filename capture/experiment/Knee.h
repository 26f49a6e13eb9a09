// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The knee of a curve: the smallest allocation whose value is within a tolerance of the best value the curve
// reaches, the tolerance being a share of the curve's range (best to worst). A curve whose whole range is within
// the tolerance of its best value is flat: the allocation buys nothing, and its knee is the smallest allocation.

#include <cstdint>
#include <string>
#include <vector>

namespace rdt::experiment {

/// 5 %: the share of a curve's range (and, for flatness, of its best value) a knee may fall short by.
inline constexpr double kDefaultKneeTolerance = 0.05;

enum class Better { Higher, Lower };

struct CurvePoint {
    double x = 0; ///< the allocation (ways, MB percent)
    double y = 0;
};

struct Knee {
    bool found = false; ///< false: no points
    double x = 0;
    double y = 0;
    double best = 0;
    double worst = 0;
    bool flat = false;
    /// Every point read 0 (flat too): nothing ran in the group while it was measured, so the curve says nothing.
    bool zero = false;
    double tolerance = kDefaultKneeTolerance;
    bool largest = false; ///< the largest allocation within the tolerance (a victim's knee over a cap on another)
    /// "7 ways: within 5 % of the curve's range from its best" / "flat: ..."
    std::string explain(const std::string& unit) const;
};

/// Points in any order; equal x values are fine (the first seen wins for the knee).
Knee findKnee(std::vector<CurvePoint> points, Better better, double tolerance = kDefaultKneeTolerance);

} // namespace rdt::experiment

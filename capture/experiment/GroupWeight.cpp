// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroupWeight.h"

#include "core/Text.h"

#include <cerrno>

namespace rdt::experiment {

Result<GroupWeight> parseGroupWeight(std::string_view spec)
{
    constexpr double kMaxWeight = 1e6;
    const auto eq = spec.find('=');
    std::size_t used = 0;
    const auto w = eq == std::string_view::npos ? std::nullopt : parseFiniteDouble(spec.substr(eq + 1), &used);
    // The whole text after '=' must be the number; NaN fails the range test and infinities are refused.
    if (!w || used != spec.size() - eq - 1 || !(*w >= 0 && *w <= kMaxWeight))
        return errnoError(EINVAL, "'" + std::string(spec) + "' is not GROUP=WEIGHT (a weight from 0 to 1000000)",
            "e.g. --weight victim=2");
    return GroupWeight { std::string(spec.substr(0, eq)), *w };
}

} // namespace rdt::experiment

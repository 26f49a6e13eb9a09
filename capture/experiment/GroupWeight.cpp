// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroupWeight.h"

#include "core/Text.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <cerrno>

namespace rdt::experiment {

namespace {
constexpr const char* kExample = "e.g. --weight victim=2, or victim=3,streamer=1 (the GUI's weights)";
}

Result<GroupWeight> parseGroupWeight(std::string_view spec)
{
    constexpr double kMaxWeight = 1e6;
    spec = trim(spec);
    const auto eq = spec.find('=');
    const auto number = eq == std::string_view::npos ? std::string_view {} : trim(spec.substr(eq + 1));
    std::size_t used = 0;
    const auto w = number.empty() ? std::nullopt : parseFiniteDouble(number, &used);
    // The whole text after '=' must be the number; NaN fails the range test and infinities are refused.
    if (!w || used != number.size() || !(*w >= 0 && *w <= kMaxWeight))
        return errnoError(
            EINVAL, "'" + std::string(spec) + "' is not GROUP=WEIGHT (a weight from 0 to 1000000)", kExample);
    const auto group = trim(spec.substr(0, eq));
    if (group.empty()) return errnoError(EINVAL, "'" + std::string(spec) + "' names no group", kExample);
    return GroupWeight { std::string(group), *w };
}

Result<std::vector<GroupWeight>> parseGroupWeights(std::string_view list)
{
    std::vector<GroupWeight> out;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto item = trim(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view {} : list.substr(comma + 1);
        if (item.empty()) continue;
        auto w = parseGroupWeight(item);
        if (!w) return w.error();
        if (std::any_of(out.begin(), out.end(), [&](const GroupWeight& o) { return o.group == w->group; }))
            return errnoError(EINVAL, "'" + w->group + "' is weighted twice", kExample);
        out.push_back(std::move(*w));
    }
    return out;
}

std::map<std::string, double> weightsByPath(const std::vector<GroupWeight>& weights)
{
    std::map<std::string, double> out;
    for (const auto& w : weights)
        out[groupPathFromName(w.group)] = w.weight;
    return out;
}

} // namespace rdt::experiment

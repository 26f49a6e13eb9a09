// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A group's weight for the advisor's weighted objective (Advisor.h), as the user types it: "GROUP=W", or a list of
// them, "victim=3,streamer=1". The one parser of the CLI's `advise --weight` and of the GUI's weights field.

#include "core/Result.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::experiment {

struct GroupWeight {
    std::string group; ///< as typed: the caller maps the user's name of the default group to its path
    double weight = 1;
};

/// "victim=2": a number from 0 to 1,000,000 after the first '=' (spaces around the name and the number ignored).
/// EINVAL with an example otherwise.
Result<GroupWeight> parseGroupWeight(std::string_view spec);

/// "victim=3,streamer=1": comma-separated GROUP=W items, each read by parseGroupWeight (empty items skipped). A
/// group weighted twice is refused: which of the two was meant cannot be known.
Result<std::vector<GroupWeight>> parseGroupWeights(std::string_view list);

/// The weights by group path, as AdviceSettings::weights holds them (the user's "default" is the root group's "").
std::map<std::string, double> weightsByPath(const std::vector<GroupWeight>& weights);

} // namespace rdt::experiment

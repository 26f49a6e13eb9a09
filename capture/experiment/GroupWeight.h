// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A group's weight for the advisor's weighted objective (Advisor.h), as the user types it: "GROUP=W". The one parser
// of the CLI's `advise --weight` and of the GUI's weights.

#include "core/Result.h"

#include <string>
#include <string_view>

namespace rdt::experiment {

struct GroupWeight {
    std::string group; ///< as typed: the caller maps the user's name of the default group to its path
    double weight = 1;
};

/// "victim=2": a number from 0 to 1,000,000 after the first '='. EINVAL with an example otherwise.
Result<GroupWeight> parseGroupWeight(std::string_view spec);

} // namespace rdt::experiment

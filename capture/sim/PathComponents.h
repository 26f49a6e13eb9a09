// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rdt::sim {

/// "p0//mon_groups/m1/" -> {"p0", "mon_groups", "m1"}: how the emulated resctrl kernel walks its paths.
inline std::vector<std::string> pathComponents(const std::string& path)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : path) {
        if (c == '/') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

} // namespace rdt::sim

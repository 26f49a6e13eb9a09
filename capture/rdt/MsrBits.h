// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small rules the MSR backend's files share: a capacity mask of `len` ones (SDM 20.19.4.2) and where resctrl would
// put a monitor group, which the backend mirrors in its group paths.

#include <cstdint>
#include <string>

namespace rdt {

inline std::uint64_t fullMask(unsigned len)
{
    return len >= 64 ? ~0ULL : (1ULL << len) - 1;
}

inline std::string monPath(const std::string& parent, const std::string& name)
{
    return parent.empty() ? "mon_groups/" + name : parent + "/mon_groups/" + name;
}

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/FsPath.h"

#include <string>
#include <vector>

namespace rdt::sim {

/// How the emulated resctrl kernel walks its paths: the components of a path confined to the root, as every Fs
/// takes them (splitBeneath: no "..", ".", empty components, absolute paths or control characters).
inline Result<std::vector<std::string>> pathComponents(const std::string& path)
{
    return splitBeneath(path);
}

} // namespace rdt::sim

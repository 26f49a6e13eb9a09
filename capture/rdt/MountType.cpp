// SPDX-License-Identifier: GPL-3.0-or-later
#include "MountType.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rdt {

std::string mountTypeAt(const std::string& dir, const std::string& mountsFile)
{
    std::error_code ec;
    const std::string canonical = std::filesystem::weakly_canonical(dir, ec).string();
    std::ifstream in(mountsFile);
    std::string line, type;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string device, point, fstype;
        words >> device >> point >> fstype;
        if (point == canonical) type = fstype;
    }
    return type;
}

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rdt {

/// The file system type of the mount at `dir` per `mountsFile` ("resctrl" for the kernel's, "fuse.resctrl" for the
/// simulated machine `rdtscope-cli sim --mount/--namespace` serves), "" when `dir` is not a mount point (a copied
/// tree). The last mount on a point is the one seen.
std::string mountTypeAt(const std::string& dir, const std::string& mountsFile = "/proc/self/mounts");

} // namespace rdt

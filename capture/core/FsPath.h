// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"

#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// The components of a path relative to an Fs root, or why the path is refused. Every Fs implementation walks
/// paths through this one rule, so nothing that could leave the root reaches a syscall: absolute paths, empty
/// components ("p0//schemata", a trailing '/'), "." and ".." components, control characters (a newline in a
/// group name), and components longer than NAME_MAX. "" and "." are the root itself (no components).
Result<std::vector<std::string>> splitBeneath(std::string_view path);

/// The most bytes one read of a file through an Fs returns (anything larger is refused, never truncated):
/// `tasks` files can list every PID below PID_MAX_LIMIT (2^22 ids of up to 7 digits and a newline), the other
/// resctrl files are a few KiB at most.
std::size_t readLimitFor(std::string_view fileName);

} // namespace rdt

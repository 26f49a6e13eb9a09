// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// How rdtscope names the root (default) group, whose path is "": a group may never be called this, or
/// `groups delete default` would mean two things.
inline constexpr std::string_view kDefaultGroupName = "default";

/// How every front end shows a group: the root group's "" path as "default" (the name a user types for it), any
/// other path as itself. Tables, CSV, markers, comparisons and the GUI all use this one spelling.
inline std::string displayGroup(std::string_view path)
{
    return path.empty() ? std::string(kDefaultGroupName) : std::string(path);
}

/// The path of a group as a user names it (CLI options, GUI fields): "default" or "/" is the root group, whose path
/// is "", any other name is the path itself.
inline std::string groupPathFromName(std::string_view name)
{
    return name == kDefaultGroupName || name == "/" ? std::string() : std::string(name);
}

/// A comma-separated list of group names as a user types it ("default, streamer,p0/mon_groups/m1"): each name
/// trimmed and turned into its path (groupPathFromName), empty items skipped. The one parser of such lists (CLI
/// options and GUI fields).
std::vector<std::string> groupPathsFromList(std::string_view list);

/// The one rule for a group's own name, checked at every entry point of both backends (and so for the CLI, the
/// GUI and the agent): one path component (FsPath.h's splitBeneath: no '/', "." or "..", control characters such
/// as a newline, nothing longer than NAME_MAX), no blanks, and none of the names the root directory itself uses
/// (info, mon_groups, mon_data) nor "default". EINVAL with the reason otherwise.
Status checkGroupName(std::string_view name);

/// A group path as backends take them: "" (the root group), "NAME" (a control group), "mon_groups/NAME" (a
/// monitor group of the root group) or "NAME/mon_groups/NAME". Anything else, "../x" and "/tmp/x" included, is
/// refused with EINVAL before any file is touched.
Status checkGroupPath(std::string_view path);

} // namespace rdt

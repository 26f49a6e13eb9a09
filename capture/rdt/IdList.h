// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// "0-3,8,10-11" -> {0,1,2,3,8,10,11} (the kernel's cpus_list format, %*pbl). Also used for --cpus / --pids.
Result<std::vector<unsigned>> parseIdList(std::string_view text);
/// {0,1,2,3,8} -> "0-3,8".
std::string formatIdList(const std::vector<unsigned>& ids);
/// The kernel's `cpus` bitmap (%*pb): comma-separated 32-bit hex words, most significant first
/// ("ffff,e98a2f85"). Returns the set CPU numbers.
Result<std::vector<unsigned>> parseCpuMask(std::string_view text);
/// One PID per line (a `tasks` file); blank lines ignored.
Result<std::vector<unsigned>> parseTaskList(std::string_view text);

} // namespace rdt

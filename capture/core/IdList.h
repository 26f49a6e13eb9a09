// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// The range an id list may name: ids must be below `end`. `what` names one id in messages ("CPU", "PID"),
/// `why` says where the bound comes from ("this machine has CPUs 0-7", "pid_max is 4194304").
struct IdBound {
    std::string what = "CPU";
    std::uint64_t end = 0;
    std::string why;
};

/// The most CPU ids any kernel list may name (a memory bound for text the kernel or a tree copy supplies; the
/// kernel's own NR_CPUS ceiling is 8192 on x86). Lists typed by a user are bounded by the machine instead.
constexpr std::uint64_t kCpuIdCeiling = 65536;
/// PID_MAX_LIMIT on 64-bit Linux (include/linux/threads.h): /proc/sys/kernel/pid_max can be at most this.
constexpr std::uint64_t kPidCeiling = 4194304;

/// CPUs 0..count-1 of a machine: "this machine has CPUs 0-N" (`who` replaces "this machine").
IdBound cpuBound(std::uint64_t count, const std::string& who = "this machine");
/// CPU ids in lists the kernel (or a copy of a kernel tree) prints: kCpuIdCeiling.
IdBound kernelCpuBound();
/// PIDs in lists the kernel (or a tree copy) prints: kPidCeiling.
IdBound kernelPidBound();
/// PIDs below /proc/sys/kernel/pid_max (read once; kPidCeiling when unreadable).
IdBound pidBound();
/// /proc/sys/kernel/pid_max, or kPidCeiling when it cannot be read.
std::uint64_t systemPidMax();

/// The one parser of the kernel's list format (%*pbl, lib/bitmap.c bitmap_parselist) for cpus_list files, sysfs
/// cpulists and the --cpus/--pids options: "0-3,8,10-11" -> {0,1,2,3,8,10,11}, sorted and unique. Numbers are
/// read as 64-bit values and checked against `bound` before anything is expanded, so "4294967295" or
/// "0-18446744073709551615" fail at once instead of looping or filling memory; overlapping ranges are merged
/// (n log n). Blanks around items and a trailing newline are accepted; empty text is the empty list.
Result<std::vector<unsigned>> parseIdList(std::string_view text, const IdBound& bound);
/// {0,1,2,3,8} -> "0-3,8" (sorts and drops duplicates first).
std::string formatIdList(std::vector<unsigned> ids);
/// The kernel's hex bitmap (%*pb: comma-separated 32-bit words, most significant first, "ffff,e98a2f85").
Result<std::vector<unsigned>> parseCpuMask(std::string_view text, const IdBound& bound);
/// One id per line (a resctrl `tasks` file); blank lines ignored; sorted and unique.
Result<std::vector<unsigned>> parseTaskList(std::string_view text, const IdBound& bound);

/// Ids of `wanted` that are not in `available` (both sorted ascending): linear, for "CPUs 9, 12 are offline".
std::vector<unsigned> missingIds(const std::vector<unsigned>& wanted, const std::vector<unsigned>& available);
/// "9", "9, 12", "9, 12, 14 and 3 more" (at most `shown` listed).
std::string idExamples(const std::vector<unsigned>& ids, std::size_t shown = 8);

} // namespace rdt

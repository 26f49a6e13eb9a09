// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pmu/Symbolizer.h"

#include <cstdint>
#include <vector>

namespace rdt::engine {

/// What every live capture loads before its first sample, so the CLI and the GUI name the same functions: the
/// /proc/PID/maps of processes that were running before the capture started (their mappings come in no MMAP
/// record) and /proc/kallsyms for kernel addresses. A launched command's mappings arrive as MMAP2 records.
/// Failures (a process gone, kallsyms hidden by kptr_restrict) leave those addresses as module+offset.
void loadTargetSymbols(pmu::Symbolizer& symbols, const std::vector<std::uint32_t>& pids);

} // namespace rdt::engine

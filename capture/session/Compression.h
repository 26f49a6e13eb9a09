// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstdint>
#include <vector>

namespace rdt::session {

/// zstd frame of `data` (level 3: fast enough for the recorder thread, ~3-5x on perf records).
Result<std::vector<std::uint8_t>> compressZstd(const std::vector<std::uint8_t>& data, int level = 3);
/// The most a PMU batch may expand: perf records compress 3-5x at level 3 (docs/SESSION-FORMAT.md), a
/// batch of identical records some hundreds; beyond 1024x the stored size is damage, not data.
inline constexpr std::uint64_t kMaxZstdRatio = 1024;

/// Decompresses a frame whose decoded size must equal `expectedSize` (stored next to it). A damaged or
/// crafted frame gives an Error, never an allocation larger than `expectedSize`, which must be at most 256 MiB,
/// at most kMaxZstdRatio times the frame's size and what the frame header declares.
Result<std::vector<std::uint8_t>> decompressZstd(const std::vector<std::uint8_t>& frame, std::uint64_t expectedSize);

} // namespace rdt::session

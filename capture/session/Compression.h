// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstdint>
#include <vector>

namespace rdt::session {

/// zstd frame of `data` (level 3: fast enough for the recorder thread, ~3-5x on perf records).
Result<std::vector<std::uint8_t>> compressZstd(const std::vector<std::uint8_t>& data, int level = 3);
/// Decompresses a frame whose decoded size must equal `expectedSize` (stored next to it). A damaged or
/// crafted frame gives an Error, never an allocation larger than `expectedSize` (capped at 256 MiB).
Result<std::vector<std::uint8_t>> decompressZstd(const std::vector<std::uint8_t>& frame, std::uint64_t expectedSize);

} // namespace rdt::session

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/BandwidthControl.h"
#include "core/Result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace rdt {

struct ResourceCaps;

/// What a memory-bandwidth schemata value means: the type lives in the engine's API (api/BandwidthControl.h);
/// this is the one place that formats and parses values in it. CLI and GUI format through it.
using api::BandwidthUnit;
using api::bandwidthUnitFromKey;
using api::bandwidthUnitKey;

/// "%", "MiB/s", "GB/s", "level".
const char* bandwidthUnitSymbol(BandwidthUnit unit);
/// A raw schemata value in the resource's unit: "50 %", "2 GB/s", "0.125 GB/s", "1024 MiB/s", "level 3",
/// "unlimited" for the value that means no limit (MiBps 4294967295, AMD's maximum).
std::string formatBandwidth(const ResourceCaps& r, std::uint64_t raw);
/// One line on what values mean, e.g. "multiples of 1/8 GB/s, 0..2048, 2048 = unlimited (AMD)".
std::string describeBandwidthUnit(const ResourceCaps& r);
/// A user's value for this resource -> the raw schemata value. Accepts the raw number ("16") or the number with
/// the resource's unit ("2GB/s", "2.5 GB/s", "50%", "1024 MiB/s"); a unit of another vendor is refused with advice
/// (a percentage on AMD is the mistake koordinator-sh/koordinator#1162 describes).
Result<std::uint64_t> parseBandwidthInput(const ResourceCaps& r, std::string_view text);

} // namespace rdt

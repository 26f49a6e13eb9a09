// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace rdt {

/// "0 B", "512 B", "1.50 KiB", "27.50 MiB", "1.00 GiB" (binary units, as cache sizes are quoted).
std::string formatBytes(double bytes);
/// "0 B/s", "950.0 MB/s", "12.34 GB/s" (decimal units, as memory bandwidth is quoted).
std::string formatBandwidth(double bytesPerSecond);
/// "950", "12.3 K", "4.56 M", "7.89 G" cycles/events.
std::string formatCount(double count);
/// "12.5%" with one decimal.
std::string formatPercent(double fraction);

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rdt::sim {

/// Formats a CPU set as the kernel's %*pb (hex, 32-bit groups separated by commas) and %*pbl (ranges).
std::string formatCpuMask(const std::vector<bool>& cpus);
std::string formatCpuList(const std::vector<bool>& cpus);
/// Parses either form (bitmap_parse / bitmap_parselist); false on bad input or a CPU >= count.
bool parseCpuMask(const std::string& text, unsigned count, std::vector<bool>& out);
bool parseCpuList(const std::string& text, unsigned count, std::vector<bool>& out);

} // namespace rdt::sim

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/AllocationLayout.h"

#include <string>

namespace rdt::cli {

/// The engine's allocation layout as `alloc show` and `replay` print it, one line per resource:
/// "  L3: 11-bit masks, 24.75 MiB (2.25 MiB per bit), 11 ways (CPUID.04H)",
/// "  MB: percent 10..100 in steps of 10 (rounded up)". Unknown values say so and why.
std::string formatLayoutLines(const api::AllocationLayout& layout);

} // namespace rdt::cli

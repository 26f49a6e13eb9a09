// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How a sample's flags (rdt/Sample.h) are written for people: one letter each in `monitor` and `replay` tables, words
// in the GUI's Monitor. One table for every front end.

#include <cstdint>
#include <string>

namespace rdt {

/// E error, U unavailable, A counter unassigned, W wrap corrected, O overflow bit seen, M maybe more than one wrap,
/// R counter reset; "-" when none.
std::string sampleFlagLetters(std::uint32_t flags);
/// The flags in words, comma-separated ("counter wrapped (corrected), overflow bit set"); "" when none.
std::string sampleFlagWords(std::uint32_t flags);

} // namespace rdt

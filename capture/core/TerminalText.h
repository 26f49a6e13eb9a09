// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace rdt {

/// `text` safe to print on a terminal: control characters (C0, DEL, and C1 as UTF-8) become \xNN (C1:
/// \u00NN), so a name read from a file or the kernel cannot move the cursor, clear the screen or retitle the
/// window (ECMA-48 control functions all start with one of them). With `keepLineBreaks`, '\n' and '\t' stay
/// (for whole reports); otherwise they are escaped too (for one name).
std::string escapeControlCharacters(std::string_view text, bool keepLineBreaks = false);

} // namespace rdt

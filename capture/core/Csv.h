// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace rdt {

/// One CSV field as RFC 4180 writes it: unchanged unless it holds a comma, a double quote, CR or LF, in which case it
/// is enclosed in double quotes and every double quote inside is doubled. The one quoting rule of every CSV that
/// rdtscope writes (CLI, GUI exports, comparisons).
std::string csvField(std::string_view text);

} // namespace rdt

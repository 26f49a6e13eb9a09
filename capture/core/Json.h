// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every JSON document rdtscope reads or writes goes through nlohmann::json (CPUID snapshots, `info --json`,
// `diff --json`, `export --json`). These helpers hold the rules the engine adds on top of the library: errors as
// Result instead of exceptions, a nesting limit, output that never throws on bytes that are not UTF-8, and one
// way to print numbers.

#include "core/Result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace rdt::json {

/// A document read: members looked up by name.
using Value = nlohmann::json;
/// A document written: members stay in the order they were added, so the output reads as documented.
using Ordered = nlohmann::ordered_json;

/// Containers nested deeper than this are refused: a hostile file must not make the reader recurse or allocate
/// without bound, and nothing rdtscope writes nests more than a few levels.
inline constexpr int kMaxDepth = 64;

/// Parses a whole document. Errors name the byte offset (0-based) of the offending character; numbers are read
/// the same under every locale; \u escapes, surrogate pairs included, become UTF-8.
Result<Value> parse(std::string_view text);

/// Compact JSON text. Bytes that are not UTF-8 (a group name or marker from a damaged file) become U+FFFD
/// instead of failing the whole document.
std::string dump(const Ordered& value);

/// The same, laid out for reading and line-based diffs: scalar members on the first line, each container member
/// on its own line, and each element of the array member `linedKey` on its own line. Ends with a newline.
std::string dumpLined(const Ordered& object, std::string_view linedKey);

/// A number as rdtscope writes it: null when not finite (JSON has no NaN or infinity), an integer when the value
/// is integral, otherwise the shortest text that reads back as the same double. With `significantDigits` (1..17)
/// the value is first rounded to that many digits, so JSON shows the figure the CSV next to it shows.
Ordered number(double value, int significantDigits = 17);

} // namespace rdt::json

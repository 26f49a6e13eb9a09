// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The text helpers every part of the engine shares: hex spellings and whitespace trimming. One implementation
// each, so a mask reads the same in a CLI message, a schemata write and a GUI tooltip.

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdt {

/// "7ff": lower-case hex digits, no prefix, no padding (how resctrl spells masks in schemata files).
std::string hexDigits(std::uint64_t value);

/// printf into a std::string of whatever length the result needs (no fixed buffer that cuts a long demangled
/// name). Uses the C locale's printf rules as std::snprintf does.
std::string formatString(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string formatStringV(const char* format, std::va_list args);
/// "0x7ff": hexDigits with the C prefix (addresses, MSR values, ids in messages).
std::string formatHex(std::uint64_t value);
/// "0x0000000d": formatHex padded with zeros to `digits` digits (32-bit registers and ids, as `cpuid -r` prints them).
std::string formatHexPadded(std::uint64_t value, int digits);
/// "00ff1a...": two lower-case digits per byte, in memory order (build ids, raw bytes).
std::string hexBytes(const std::uint8_t* data, std::size_t size);

/// True for the bytes C's isspace() accepts in the "C" locale (and the kernel's strim()): " \t\n\v\f\r".
constexpr bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
/// `s` without leading and trailing ASCII whitespace (isAsciiSpace); a view into `s`.
std::string_view trim(std::string_view s);

/// A decimal number at the start of `text` ("1.5", "2e3", "-4"), read the same in every locale (std::from_chars,
/// unlike strtod, never follows LC_NUMERIC, which the GUI sets). NaN, infinities and values out of double's range
/// give nothing. `consumed` (optional) receives the number of characters read, so callers can parse a unit after it.
std::optional<double> parseFiniteDouble(std::string_view text, std::size_t* consumed = nullptr);

} // namespace rdt

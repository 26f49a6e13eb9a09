// SPDX-License-Identifier: GPL-3.0-or-later
#include "Text.h"

#include <cstdio>

#include <charconv>
#include <cmath>

namespace rdt {

namespace {
constexpr char kDigits[] = "0123456789abcdef";
}

std::string hexDigits(std::uint64_t value)
{
    char buf[16];
    std::size_t n = 0;
    do {
        buf[n++] = kDigits[value & 0xf];
        value >>= 4;
    } while (value != 0);
    return std::string(std::make_reverse_iterator(buf + n), std::make_reverse_iterator(buf));
}

std::string formatHex(std::uint64_t value)
{
    return "0x" + hexDigits(value);
}

std::string formatHexPadded(std::uint64_t value, int digits)
{
    return formatString("0x%0*llx", digits, static_cast<unsigned long long>(value));
}

std::string hexBytes(const std::uint8_t* data, std::size_t size)
{
    std::string s;
    s.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        s += kDigits[data[i] >> 4];
        s += kDigits[data[i] & 0xf];
    }
    return s;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isAsciiSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isAsciiSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

std::optional<double> parseFiniteDouble(std::string_view text, std::size_t* consumed)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || !std::isfinite(v)) return std::nullopt;
    if (consumed) *consumed = static_cast<std::size_t>(end - text.data());
    return v;
}

std::string formatStringV(const char* format, std::va_list args)
{
    std::va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, format, args);
    std::string out;
    if (n > 0) {
        out.resize(static_cast<std::size_t>(n) + 1);
        std::vsnprintf(out.data(), out.size(), format, again);
        out.resize(static_cast<std::size_t>(n));
    }
    va_end(again);
    return out;
}

std::string formatString(const char* format, ...)
{
    std::va_list args;
    va_start(args, format);
    std::string out = formatStringV(format, args);
    va_end(args);
    return out;
}

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Text.h"

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

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Preamble.h"

#include <algorithm>
#include <cstdio>

namespace rdt::protocol {

std::array<std::uint8_t, kPreambleBytes> encodePreamble(std::uint32_t version)
{
    std::array<std::uint8_t, kPreambleBytes> p {};
    std::copy(kMagic.begin(), kMagic.end(), p.begin());
    p[8] = static_cast<std::uint8_t>(version >> 24);
    p[9] = static_cast<std::uint8_t>(version >> 16);
    p[10] = static_cast<std::uint8_t>(version >> 8);
    p[11] = static_cast<std::uint8_t>(version);
    return p;
}

std::string printableExcerpt(std::span<const std::uint8_t> bytes, std::size_t maxChars)
{
    std::size_t n = bytes.size();
    while (n > 0 && (bytes[n - 1] == '\n' || bytes[n - 1] == '\r' || bytes[n - 1] == ' '))
        --n;
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t c = bytes[i];
        if (s.size() >= maxChars) {
            s += "...";
            break;
        }
        if (c == '\n') {
            s += " | ";
        } else if (c >= 0x20 && c < 0x7f) {
            s += static_cast<char>(c);
        } else if (c != '\r') {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            s += hex;
        }
    }
    return s;
}

Result<std::uint32_t> parsePreamble(std::span<const std::uint8_t> bytes, const std::string& peerName)
{
    if (bytes.size() < kPreambleBytes || !std::equal(kMagic.begin(), kMagic.end(), bytes.begin())) {
        const bool text = !bytes.empty() && std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t c) {
            return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' || c == '\t';
        });
        if (text)
            return makeError(peerName + " did not answer with the rdtscope protocol but printed: \""
                    + printableExcerpt(bytes) + "\"",
                "if this is a shell message, rdtscope-agent is not installed there or not on its PATH (install it, "
                "or name its path with --agent); if it is a greeting, make the login scripts quiet for "
                "non-interactive shells");
        return makeError(peerName + " does not speak the rdtscope protocol (it sent " + std::to_string(bytes.size())
                + " bytes starting \"" + printableExcerpt(bytes, 48) + "\")",
            "check that the address points at an rdtscope agent");
    }
    const std::uint32_t v = (std::uint32_t { bytes[8] } << 24) | (std::uint32_t { bytes[9] } << 16)
        | (std::uint32_t { bytes[10] } << 8) | std::uint32_t { bytes[11] };
    if (v == 0) return makeError(peerName + " announced protocol version 0, which does not exist");
    return v;
}

} // namespace rdt::protocol

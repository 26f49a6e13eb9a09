// SPDX-License-Identifier: GPL-3.0-or-later
#include "TerminalText.h"

namespace rdt {

std::string escapeControlCharacters(std::string_view text, bool keepLineBreaks)
{
    static const char* const hex = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == 0xc2 && i + 1 < text.size()) {
            const auto next = static_cast<unsigned char>(text[i + 1]);
            if (next >= 0x80 && next <= 0x9f) { // U+0080..U+009F, the C1 controls (CSI is U+009B)
                out += "\\u00";
                out += hex[next >> 4];
                out += hex[next & 15];
                ++i;
                continue;
            }
        }
        const bool control = c < 0x20 || c == 0x7f;
        if (!control || (keepLineBreaks && (c == '\n' || c == '\t'))) {
            out += static_cast<char>(c);
            continue;
        }
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    }
    return out;
}

} // namespace rdt

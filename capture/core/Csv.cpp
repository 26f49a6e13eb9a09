// SPDX-License-Identifier: GPL-3.0-or-later
#include "Csv.h"

namespace rdt {

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string quoted = "\"";
    quoted.reserve(text.size() + 2);
    for (char ch : text) {
        if (ch == '"') quoted += '"';
        quoted += ch;
    }
    return quoted + "\"";
}

} // namespace rdt

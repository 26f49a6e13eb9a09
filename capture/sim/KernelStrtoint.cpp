// SPDX-License-Identifier: GPL-3.0-or-later
#include "KernelStrtoint.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace rdt::sim {

bool kstrtoint(const std::string& s, long long& v)
{
    std::string t = s;
    if (!t.empty() && t.back() == '\n') t.pop_back();
    if (t.empty()) return false;
    char* end = nullptr;
    errno = 0;
    v = std::strtoll(t.c_str(), &end, 0);
    if (errno != 0 || *end != '\0' || std::isspace(static_cast<unsigned char>(t[0])) || v > 0x7FFFFFFF
        || v < -0x7FFFFFFFLL - 1)
        return false;
    return true;
}

} // namespace rdt::sim

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rdt::sim {

/// The kernel's kstrtoint(s, 0, &v) (lib/kstrtox.c): optional sign, 0x/0 prefixes, one trailing newline; false on
/// anything else, as the emulated resctrl files parse their numbers.
bool kstrtoint(const std::string& s, long long& v);

} // namespace rdt::sim

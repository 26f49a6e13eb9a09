// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Whether a source's allocations can be written, decided once by the engine for every front end (the GUI's editors,
// the CLI's alloc set, an agent's client): never worked out again from the source's kind.

#include <string>

namespace rdt::api {

struct Writability {
    bool writable = true;
    std::string reason; ///< why not: "no write access to /sys/fs/resctrl/schemata (Permission denied)"
    std::string fix; ///< what would fix it: "run rdtscope as root (or with CAP_SYS_ADMIN) to change allocations"

    static Writability yes() { return {}; }
    static Writability no(std::string why, std::string advice) { return { false, std::move(why), std::move(advice) }; }
    /// "reason: fix", or "" when writable (one line for a status bar or a disabled editor's tooltip).
    std::string text() const { return writable ? std::string() : fix.empty() ? reason : reason + ": " + fix; }
};

} // namespace rdt::api

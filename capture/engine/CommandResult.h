// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>
#include <vector>

namespace rdt::engine {

/// Every command's answer: ok, or the reason and advice that fit the cause (an errno-style code for exit codes).
struct CommandResult {
    bool ok = true;
    int code = 0;
    std::string reason;
    std::string advice;
    std::vector<std::string> notes; ///< e.g. "MB:0 71 rounded up to 80 (bandwidth_gran 10)"

    static CommandResult success(std::vector<std::string> notes = {});
    static CommandResult failure(const Error& error);
    Error error() const { return { code, reason, advice }; }
    /// "reason (advice)", as Error::toString.
    std::string toString() const { return error().toString(); }
};

} // namespace rdt::engine

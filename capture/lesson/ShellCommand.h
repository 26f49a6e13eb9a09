// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A command a `source resctrl` lesson's step has the student type (`pqos -I -e "llc:1=0x3"`), run the way a shell
// runs it, for `rdtscope-cli lesson NAME --check` (docs/LESSONS.md "Lessons with host tools").

#include "core/Result.h"

#include <string>

namespace rdt::lesson {

struct ShellOutput {
    int exitCode = -1;
    std::string output; ///< stdout and stderr, at most the last 16 KiB
};

/// Runs `/bin/sh -c command` with stdin from /dev/null and waits at most `timeoutMs` (then SIGKILL and an error);
/// an error also when sh cannot start. A command that ran and failed is a value (its exit code and output).
Result<ShellOutput> runShellCommand(const std::string& command, int timeoutMs = 30'000);

} // namespace rdt::lesson

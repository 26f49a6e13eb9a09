// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rdt::cli {

/// Exit codes of rdtscope-cli, documented in `rdtscope-cli --help` and the README.
enum ExitCode : int {
    ExitOk = 0,
    ExitFailure = 1, ///< the command ran and failed (bad input, write rejected, corrupt file)
    ExitUsage = 2, ///< wrong command line
    ExitUnavailable = 3, ///< the requested hardware or kernel interface is not available here
};

using CommandFn = int (*)(const std::vector<std::string>& args);

struct Command {
    const char* name;
    const char* synopsis; ///< one line for `rdtscope-cli --help`
    CommandFn run;
    /// Runs through the capture engine, so also on an agent with `rdtscope-cli --connect URL COMMAND`.
    bool remote = false;
};

/// The exit code of a command that read a damaged input file (`damage` in words, empty when it is whole): says
/// what was lost on stderr; 1 unless the user asked to `salvage` what was readable. One rule for every reader.
int damagedInputExit(const char* command, const std::string& file, const std::string& damage, bool salvage);

/// The command table (Commands.cpp). Each command lives in its own Cmd*.cpp file.
const std::vector<Command>& commands();

} // namespace rdt::cli

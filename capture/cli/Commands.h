// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rdt::cli {

/// Exit codes of rdtscope-cli, documented in `rdtscope-cli --help` and the README.
enum ExitCode : int {
    ExitOk = 0,
    ExitFailure = 1, ///< the command ran and failed (bad input, write rejected, corrupt file)
    ExitUsage = 2, ///< wrong command line
    ExitUnavailable = 3, ///< the requested hardware or kernel interface is not available here
};

/// What runs once the command line has parsed: the command, with the values its options received.
using CommandRun = std::function<int()>;
/// Declares a command's options, positionals and help on its CLI11 subcommand; returns how to run it.
using CommandDefine = CommandRun (*)(CLI::App& command);

struct Command {
    const char* name;
    const char* summary; ///< one line for `rdtscope-cli --help`
    CommandDefine define;
    /// Runs through the capture engine, so also on an agent with `rdtscope-cli --connect URL COMMAND`.
    bool remote = false;
};

/// The exit code of a command that read a damaged input file (`damage` in words, empty when it is whole): says
/// what was lost on stderr; 1 unless the user asked to `salvage` what was readable. One rule for every reader.
int damagedInputExit(const char* command, const std::string& file, const std::string& damage, bool salvage);

/// The command table (Commands.cpp). Each command lives in its own Cmd*.cpp file.
const std::vector<Command>& commands();

/// The arguments after the command's name, as typed (a session records its command line).
const std::vector<std::string>& commandArguments();

/// rdtscope-cli itself: parses the command line with CLI11 (one subcommand per command of the table) and runs the
/// command; every parse error is a usage error (exit 2), `--help` anywhere prints the help CLI11 generates.
int runCli(int argc, const char* const* argv);

} // namespace rdt::cli

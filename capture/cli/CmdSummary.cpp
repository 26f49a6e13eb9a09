// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli summary FILE: what a session holds, without reading its samples (opens at once).
#include "CmdSession.h"
#include "Commands.h"
#include "Options.h"

#include "core/TerminalText.h"
#include "session/SessionText.h"

#include <cstdio>

namespace rdt::cli {

CommandRun defineSummary(CLI::App& cmd)
{
    cmd.footer(
        "Prints what a session file holds: machine, source (and whether it is SIMULATED), duration, groups with\n"
        "their sample counts, allocation changes, membership changes, markers, and every problem found in the\n"
        "file.\n"
        "Exit codes: 0 ok (also for a recording that was killed: it says so), 1 damaged/foreign/newer file (the\n"
        "readable part is printed), 2 usage error.");
    auto file = std::make_shared<std::string>();
    addPositional(cmd, "FILE", *file, "the session file")->required();
    return [file] {
        auto reader = openSessionForCli("summary", *file);
        if (!reader) return int(ExitFailure);
        // Names, hosts, command lines and markers come from the file: no control character reaches the terminal.
        std::fputs(escapeControlCharacters(session::formatSummary(*reader), true).c_str(), stdout);
        return sessionExitCode(*reader);
    };
}

} // namespace rdt::cli

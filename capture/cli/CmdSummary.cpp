// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli summary FILE: what a session holds, without reading its samples (opens at once).
#include "Args.h"
#include "CmdSession.h"
#include "Commands.h"

#include "session/SessionText.h"

#include <cstdio>

namespace rdt::cli {

namespace {

const char* const kSummaryHelp = R"(usage: rdtscope-cli summary FILE

Prints what a session file holds: machine, source (and whether it is SIMULATED), duration, groups with their
sample counts, allocation changes, membership changes, markers, and every problem found in the file.
Exit codes: 0 ok (also for a recording that was killed: it says so), 1 damaged/foreign/newer file (the
readable part is printed), 2 usage error.
)";

} // namespace

int cmdSummary(const std::vector<std::string>& argv)
{
    auto args = Args::parse(argv, {}, { "help" });
    if (!args || (!args->has("help") && args->positionals().size() != 1)) {
        std::fprintf(stderr, "rdtscope-cli summary: %s\n%s", args ? "give one session file" : args.error().toString().c_str(),
            kSummaryHelp);
        return ExitUsage;
    }
    if (args->has("help")) {
        std::fputs(kSummaryHelp, stdout);
        return ExitOk;
    }
    auto reader = openSessionForCli("summary", args->positionals()[0]);
    if (!reader)
        return ExitFailure;
    std::fputs(session::formatSummary(*reader).c_str(), stdout);
    return sessionExitCode(*reader);
}

} // namespace rdt::cli

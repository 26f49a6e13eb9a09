// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli export FILE --csv|--json [--from S] [--to S] [-o OUT]
#include "Args.h"
#include "CmdSession.h"
#include "Commands.h"

#include "session/SessionText.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace rdt::cli {

namespace {

const char* const kExportHelp = R"(usage: rdtscope-cli export FILE --csv|--json [--from S] [--to S] [-o OUT] [--salvage]

Writes a session's data to stdout (or OUT):
  --csv     the RDT samples, with the header `monitor --csv` prints:
            time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps
  --json    one JSON document: meta (source, simulated flag, ...), machine, groups, allocation changes,
            membership, markers, samples (all fields) and TMA rows
  --from S, --to S   only times in [S, T) seconds into the session
  --salvage          a damaged file: write what is readable and exit 0 (the count lost still goes to stderr)
Exit codes: 0 ok, 1 damaged file (everything readable was written, problems on stderr), 2 usage error.
)";

} // namespace

int cmdExport(const std::vector<std::string>& argvIn)
{
    auto args
        = Args::parse(expandShortOutput(argvIn), { "from", "to", "output" }, { "csv", "json", "salvage", "help" });
    if (args && args->has("help")) {
        std::fputs(kExportHelp, stdout);
        return ExitOk;
    }
    if (!args || args->positionals().size() != 1 || args->has("csv") == args->has("json")) {
        std::fprintf(stderr, "rdtscope-cli export: %s\n%s",
            args ? "give one session file and exactly one of --csv or --json" : args.error().toString().c_str(),
            kExportHelp);
        return ExitUsage;
    }
    auto from = args->number("from", 0, kSessionSeconds);
    auto to = args->number("to", -1, kSessionSeconds);
    if (!from || !to) {
        std::fprintf(stderr, "rdtscope-cli export: %s\n", (!from ? from.error() : to.error()).toString().c_str());
        return ExitUsage;
    }
    auto reader = openSessionForCli("export", args->positionals()[0]);
    if (!reader) return ExitFailure;
    const std::uint64_t fromNs = args->has("from") ? sessionTimeNs(*reader, *from) : 0;
    const std::uint64_t toNs = args->has("to") ? sessionTimeNs(*reader, *to) : UINT64_MAX;
    std::FILE* out = stdout;
    if (auto path = args->value("output")) {
        out = std::fopen(path->c_str(), "w");
        if (!out) {
            std::fprintf(stderr, "rdtscope-cli export: cannot write %s: %s\n", path->c_str(), std::strerror(errno));
            return ExitFailure;
        }
    }
    const Status s = args->has("csv") ? session::exportCsv(*reader, fromNs, toNs, out)
                                      : session::exportJson(*reader, fromNs, toNs, out);
    const bool writeFailed = std::ferror(out) != 0;
    if (out != stdout)
        std::fclose(out);
    else
        std::fflush(stdout);
    printSessionIssues("export", *reader);
    if (writeFailed) {
        std::fprintf(stderr, "rdtscope-cli export: writing the output failed (disk full or closed pipe?)\n");
        return ExitFailure;
    }
    if (!s && !(reader->damaged() && args->has("salvage"))) return ExitFailure;
    return sessionExitCode(*reader, args->has("salvage"));
}

} // namespace rdt::cli

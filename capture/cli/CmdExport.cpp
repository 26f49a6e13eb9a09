// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli export FILE --csv|--json [--from S] [--to S] [-o OUT]
#include "CmdSession.h"
#include "Commands.h"
#include "Options.h"

#include "session/SessionText.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace rdt::cli {

namespace {

struct ExportOptions {
    std::string file;
    bool csv = false, json = false, salvage = false;
    std::optional<double> from, to;
    std::string output;
};

int runExport(const ExportOptions& o)
{
    auto reader = openSessionForCli("export", o.file);
    if (!reader) return ExitFailure;
    const std::uint64_t fromNs = o.from ? sessionTimeNs(*reader, *o.from) : 0;
    const std::uint64_t toNs = o.to ? sessionTimeNs(*reader, *o.to) : UINT64_MAX;
    std::FILE* out = stdout;
    if (!o.output.empty()) {
        out = std::fopen(o.output.c_str(), "w");
        if (!out) {
            std::fprintf(stderr, "rdtscope-cli export: cannot write %s: %s\n", o.output.c_str(), std::strerror(errno));
            return ExitFailure;
        }
    }
    const Status s
        = o.csv ? session::exportCsv(*reader, fromNs, toNs, out) : session::exportJson(*reader, fromNs, toNs, out);
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
    if (!s && !(reader->damaged() && o.salvage)) return ExitFailure;
    return sessionExitCode(*reader, o.salvage);
}

} // namespace

CommandRun defineExport(CLI::App& cmd)
{
    cmd.footer(
        "Writes a session's data to stdout (or OUT): --csv the RDT samples, with the header `monitor --csv`\n"
        "prints (time_s,group,domain,llc_occupancy_bytes,mbm_total_bps,mbm_local_bps); --json one JSON\n"
        "document: meta (source, simulated flag, ...), machine, groups, allocation changes, membership,\n"
        "markers, samples (all fields) and TMA rows.\n"
        "Exit codes: 0 ok, 1 damaged file (everything readable was written, problems on stderr), 2 usage error.");
    auto o = std::make_shared<ExportOptions>();
    addPositional(cmd, "FILE", o->file, "the session file")->required();
    auto* format = cmd.add_option_group("format");
    format->add_flag("--csv", o->csv, "the RDT samples as CSV");
    format->add_flag("--json", o->json, "everything the session holds as one JSON document");
    format->require_option(1);
    addNumber(cmd, "--from", o->from, kSessionSeconds, "S", "only times from S seconds into the session");
    addNumber(cmd, "--to", o->to, kSessionSeconds, "S", "only times before S seconds into the session");
    cmd.add_option("-o,--output", o->output, "write to OUT instead of stdout")->type_name("OUT");
    cmd.add_flag("--salvage", o->salvage,
        "a damaged file: write what is readable and exit 0 (the count lost still goes to stderr)");
    return [o] { return runExport(*o); };
}

} // namespace rdt::cli

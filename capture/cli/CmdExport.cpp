// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli export FILE --csv|--json [--from S] [--to S] [-o OUT]
#include "CmdSession.h"
#include "Commands.h"
#include "Options.h"

#include "core/OutputFile.h"
#include "session/SessionText.h"

#include <cstdio>
#include <optional>

namespace rdt::cli {

namespace {

struct ExportOptions {
    std::string file;
    bool csv = false, json = false, salvage = false, force = false;
    std::optional<double> from, to;
    std::optional<std::string> output; ///< given, even empty (an empty name is refused, not stdout)
};

int runExport(const ExportOptions& o)
{
    // The output rule first: a refused -o never opens the session (and so never touches it).
    const auto rule = session::exportOutputRule(o.json, o.force, o.file);
    std::optional<OutputFile> file;
    if (o.output) {
        auto created = OutputFile::create(*o.output, rule);
        if (!created) {
            std::fprintf(stderr, "rdtscope-cli export: %s\n", created.error().toString().c_str());
            return ExitFailure;
        }
        file.emplace(std::move(*created));
    }
    auto reader = openSessionForCli("export", o.file);
    if (!reader) return ExitFailure;
    const std::uint64_t fromNs = o.from ? sessionTimeNs(*reader, *o.from) : 0;
    const std::uint64_t toNs = o.to ? sessionTimeNs(*reader, *o.to) : UINT64_MAX;
    std::FILE* out = file ? file->stream() : stdout;
    const Status s
        = o.csv ? session::exportCsv(*reader, fromNs, toNs, out) : session::exportJson(*reader, fromNs, toNs, out);
    const bool writeFailed = std::ferror(out) != 0;
    if (!file) std::fflush(stdout);
    printSessionIssues("export", *reader);
    if (file && !writeFailed && (s || (reader->damaged() && o.salvage))) {
        // Renamed into place only when complete: a failed export leaves an old OUT as it was.
        if (auto committed = file->commit(); !committed) {
            std::fprintf(stderr, "rdtscope-cli export: %s\n", committed.error().toString().c_str());
            return ExitFailure;
        }
    } else if (file && !s && !writeFailed) {
        std::fprintf(stderr, "rdtscope-cli export: %s was not written (the export failed)\n", o.output->c_str());
    }
    if (writeFailed) {
        std::fprintf(stderr, "rdtscope-cli export: writing the output failed (disk full or closed pipe?)%s\n",
            file ? "; OUT is left as it was" : "");
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
    cmd.add_option("-o,--output", o->output,
           "write to OUT instead of stdout (never the session itself; an existing OUT\nonly with --force)")
        ->type_name("OUT");
    cmd.add_flag("--force", o->force, "with -o: replace OUT if it is an export of the same format");
    cmd.add_flag("--salvage", o->salvage,
        "a damaged file: write what is readable and exit 0 (the count lost still goes to stderr)");
    return [o] { return runExport(*o); };
}

} // namespace rdt::cli

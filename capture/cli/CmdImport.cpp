// SPDX-License-Identifier: GPL-3.0-or-later
// `rdtscope-cli import perf.data [--symfs DIR] [-o session.rdts]`: reads a perf.data file (any mode), resolves its
// symbols, builds the LBR / load-latency aggregates and, with -o, stores it as a session file for replay.
#include "Args.h"
#include "Commands.h"

#include "perfdata/PerfDataImport.h"
#include "perfdata/PerfDataSession.h"

#include <cinttypes>
#include <cstdio>
#include <string>

namespace rdt::cli {

namespace {

const char* const kImportHelp = R"(usage: rdtscope-cli import FILE [--symfs DIR]... [-o SESSION] [--force] [--progress]

Reads a perf.data file (file or pipe mode, zstd-compressed or not), checks every record, resolves symbols and
prints what it holds: events, samples, lost records, branch-stack and load-latency content, and the hottest
functions. With -o it writes a session file (the records, the events, the executable mappings) that
`rdtscope` and `rdtscope-cli replay` open like a recorded session.
Options:
  --symfs DIR   where to find the profiled binaries (DIR/<recorded path>, DIR/<basename>, or by build-id)
  -o, --output SESSION   write the session file
  --force       overwrite SESSION if it exists
  --progress    print progress to stderr
  --salvage     a damaged file (cut short, undecodable records): import what is readable and exit 0
Exit codes: 0 imported, 1 unreadable or damaged file (what was readable is still shown and stored) or session
not writable, 2 usage error.
)";

void summary(const std::string& file, const perfdata::ImportResult& r)
{
    const auto& h = r.header;
    std::printf("%s: %s mode, %" PRIu64 " records (%" PRIu64 " bytes), %" PRIu64 " samples\n", file.c_str(),
        r.pipeMode ? "pipe" : "file", r.stats.records, r.stats.bytes, r.samples);
    if (!h.cpuDesc.empty())
        std::printf("machine: %s, %u CPUs online, %s, perf %s\n", h.cpuDesc.c_str(), h.nrCpusOnline.value_or(0),
            h.arch.c_str(), h.version.c_str());
    if (!h.cmdline.empty()) std::printf("command: %s\n", h.commandLine().c_str());
    for (const auto& e : h.events) {
        std::printf("event: %s (type %u, config %#" PRIx64 ", sample_type %#" PRIx64 ", %zu ids",
            e.name.empty() ? "?" : e.name.c_str(), e.attr.type, e.attr.config, e.attr.sampleType, e.ids.size());
        if (!e.unit.empty()) std::printf(", unit %s", e.unit.c_str());
        if (e.scale != 1.0) std::printf(", scale %g", e.scale);
        std::printf(")\n");
    }
    if (r.stats.compressedRecords)
        std::printf("compressed: %" PRIu64 " zstd records, %" PRIu64 " bytes decompressed\n", r.stats.compressedRecords,
            r.stats.decompressedBytes);
    std::printf("lost: %" PRIu64 " records, %" PRIu64 " samples; %" PRIu64 " unknown records skipped; %" PRIu64
                " undecodable\n",
        r.stats.lost, r.stats.lostSamples, r.stats.unknownRecords, r.stats.decodeErrors);
    if (!h.skippedFeatures.empty()) {
        std::printf("features not interpreted:");
        for (auto f : h.skippedFeatures)
            std::printf(" %s", perfdata::featureName(f).c_str());
        std::printf("\n");
    }
    for (const auto& w : h.warnings)
        std::printf("warning: %s\n", w.c_str());
    for (const auto& w : r.stats.warnings)
        std::printf("warning: %s\n", w.c_str());
    for (const auto& b : r.binaries)
        std::printf("binary: %s\n", b.c_str());
    if (!r.missingBinaries.empty())
        std::printf("binaries not found: %zu (pass --symfs DIR)\n", r.missingBinaries.size());
    if (r.lbrMode)
        std::printf("LBR: %s, %" PRIu64 " branch entries, %zu function edges\n",
            *r.lbrMode == pmu::BranchGraph::Mode::CallStack ? "call-stack mode" : "any-branch mode", r.lbr.branches,
            r.lbr.edges.size());
    if (r.hasMem)
        std::printf("load latency: %" PRIu64 " samples, mean %.1f cycles\n", r.mem.total.count, r.mem.total.mean());
    std::printf("top symbols (samples):\n");
    for (std::size_t i = 0; i < r.bySymbol.size() && i < 10; ++i)
        std::printf("%10" PRIu64 "  %s  %s\n", r.bySymbol[i].samples, r.bySymbol[i].symbol.c_str(),
            r.bySymbol[i].module.c_str());
}

} // namespace

int cmdImport(const std::vector<std::string>& argvIn)
{
    std::vector<std::string> argv;
    for (const auto& a : argvIn)
        argv.push_back(a == "-o" ? "--output" : a);
    auto args = Args::parse(argv, { "symfs", "output" }, { "force", "progress", "salvage", "help" });
    if (!args) {
        std::fprintf(stderr, "rdtscope-cli import: %s\n\n%s", args.error().toString().c_str(), kImportHelp);
        return ExitUsage;
    }
    if (args->has("help")) {
        std::fputs(kImportHelp, stdout);
        return ExitOk;
    }
    if (args->positionals().size() != 1) {
        std::fputs(kImportHelp, stderr);
        return ExitUsage;
    }
    const std::string file = args->positionals()[0];
    perfdata::ImportOptions opt;
    opt.symfs = args->values("symfs");
    if (args->has("progress"))
        opt.read.progress = [](std::uint64_t done, std::uint64_t total) {
            if (total)
                std::fprintf(
                    stderr, "\rimport: %5.1f%%", 100.0 * static_cast<double>(done) / static_cast<double>(total));
            else
                std::fprintf(stderr, "\rimport: %" PRIu64 " MiB", done >> 20);
            return true;
        };
    if (auto out = args->value("output")) {
        auto r = perfdata::importToSession(file, *out, opt, args->has("force"));
        if (args->has("progress")) std::fprintf(stderr, "\n");
        if (!r) {
            std::fprintf(stderr, "rdtscope-cli import: %s\n", r.error().toString().c_str());
            return ExitFailure;
        }
        summary(file, r->import);
        std::printf("session: %s (%" PRIu64 " records in %" PRIu64 " batches, %" PRIu64 " address maps)\n",
            out->c_str(), r->recordsStored, r->batches, r->addressMaps);
        return damagedInputExit("import", file, r->import.stats.damage(), args->has("salvage"));
    }
    auto r = perfdata::importPerfData(file, opt);
    if (args->has("progress")) std::fprintf(stderr, "\n");
    if (!r) {
        std::fprintf(stderr, "rdtscope-cli import: %s\n", r.error().toString().c_str());
        return ExitFailure;
    }
    summary(file, *r);
    return damagedInputExit("import", file, r->stats.damage(), args->has("salvage"));
}

} // namespace rdt::cli

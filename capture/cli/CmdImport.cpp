// SPDX-License-Identifier: GPL-3.0-or-later
// `rdtscope-cli import perf.data [--symfs DIR] [-o session.rdts]`: reads a perf.data file (any mode), resolves its
// symbols, builds the LBR / load-latency aggregates and, with -o, stores it as a session file for replay.
#include "Commands.h"
#include "Options.h"

#include "perfdata/PerfDataImport.h"
#include "perfdata/PerfDataSession.h"

#include <cinttypes>
#include <cstdio>
#include <optional>
#include <string>

namespace rdt::cli {

namespace {

struct ImportCommandOptions {
    std::string file;
    std::vector<std::string> symfs;
    std::optional<std::string> output; ///< given, even empty (then refused)
    bool force = false, progress = false, salvage = false;
};

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
        std::printf("LBR: %s, %s, %" PRIu64 " branch entries, %zu function edges (%zu call, %zu unknown kind)\n",
            r.lbrInfo.modeName().c_str(), std::string(pmu::branchStackSourceName(r.lbrInfo.source)).c_str(),
            r.lbr.branches, r.lbr.edges.size(), r.lbr.edgeCount(pmu::EdgeKind::Call),
            r.lbr.edgeCount(pmu::EdgeKind::Unknown));
    if (r.hasMem)
        std::printf("load latency: %" PRIu64 " samples, mean %.1f cycles\n", r.mem.total.count, r.mem.total.mean());
    std::printf("top symbols (samples):\n");
    for (std::size_t i = 0; i < r.bySymbol.size() && i < 10; ++i)
        std::printf("%10" PRIu64 "  %s  %s\n", r.bySymbol[i].samples, r.bySymbol[i].symbol.c_str(),
            r.bySymbol[i].module.c_str());
}

int runImport(const ImportCommandOptions& o)
{
    const std::string& file = o.file;
    perfdata::ImportOptions opt;
    opt.symfs = o.symfs;
    if (o.progress)
        opt.read.progress = [](std::uint64_t done, std::uint64_t total) {
            if (total)
                std::fprintf(
                    stderr, "\rimport: %5.1f%%", 100.0 * static_cast<double>(done) / static_cast<double>(total));
            else
                std::fprintf(stderr, "\rimport: %" PRIu64 " MiB", done >> 20);
            return true;
        };
    if (o.output) {
        auto r = perfdata::importToSession(file, *o.output, opt, o.force);
        if (o.progress) std::fprintf(stderr, "\n");
        if (!r) {
            std::fprintf(stderr, "rdtscope-cli import: %s\n", r.error().toString().c_str());
            return ExitFailure;
        }
        summary(file, r->import);
        std::printf("session: %s (%" PRIu64 " records in %" PRIu64 " batches, %" PRIu64 " address maps)\n",
            o.output->c_str(), r->recordsStored, r->batches, r->addressMaps);
        return damagedInputExit("import", file, r->import.stats.damage(), o.salvage);
    }
    auto r = perfdata::importPerfData(file, opt);
    if (o.progress) std::fprintf(stderr, "\n");
    if (!r) {
        std::fprintf(stderr, "rdtscope-cli import: %s\n", r.error().toString().c_str());
        return ExitFailure;
    }
    summary(file, *r);
    return damagedInputExit("import", file, r->stats.damage(), o.salvage);
}

} // namespace

CommandRun defineImport(CLI::App& cmd)
{
    cmd.footer("Reads a perf.data file (file or pipe mode, zstd-compressed or not; - reads stdin), checks every\n"
               "record, resolves symbols and prints what it holds: events, samples, lost records, branch-stack and\n"
               "load-latency content, and the hottest functions. With -o it writes a session file (the records, the\n"
               "events, the executable mappings) that `rdtscope` and `rdtscope-cli replay` open like a recorded\n"
               "session.\n"
               "Exit codes: 0 imported, 1 unreadable or damaged file (what was readable is still shown and stored)\n"
               "or session not writable, 2 usage error.");
    auto o = std::make_shared<ImportCommandOptions>();
    addPositional(cmd, "FILE", o->file, "the perf.data file (- reads stdin)")->type_name("FILE|-")->required();
    cmd.add_option("--symfs", o->symfs,
           "where to find the profiled binaries (DIR/<recorded path>, DIR/<basename>,\nor by build-id)")
        ->type_name("DIR")
        ->take_all();
    cmd.add_option("-o,--output", o->output, "write the session file")->type_name("SESSION");
    cmd.add_flag("--force", o->force, "replace SESSION if it is a session file (never the perf.data file read)");
    cmd.add_flag("--progress", o->progress, "print progress to stderr");
    cmd.add_flag("--salvage", o->salvage,
        "a damaged file (cut short, undecodable records): import what is\nreadable and exit 0");
    return [o] { return runImport(*o); };
}

} // namespace rdt::cli

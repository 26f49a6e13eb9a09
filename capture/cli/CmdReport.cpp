// SPDX-License-Identifier: GPL-3.0-or-later
// `rdtscope-cli report perf.data --lbr|--mem`: the branch-edge table (counts, mispredict rate, cycles) or the
// load-latency tables (histogram by data source, top functions and cache lines) of a perf.data file.
#include "Commands.h"
#include "Options.h"

#include "perfdata/PerfDataImport.h"

#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <string>

namespace rdt::cli {

namespace {

struct ReportOptions {
    std::string file;
    bool lbr = false, mem = false, stats = false, salvage = false;
    std::vector<std::string> symfs;
    double top = 20;
};

std::string pct(double v)
{
    char b[16];
    std::snprintf(b, sizeof b, "%5.1f%%", v * 100.0);
    return b;
}

void printHeader(const std::string& file, const perfdata::ImportResult& r)
{
    const auto& h = r.header;
    std::printf("%s: %s mode, %" PRIu64 " samples, %" PRIu64 " records\n", file.c_str(), r.pipeMode ? "pipe" : "file",
        r.samples, r.stats.records);
    if (!h.cpuDesc.empty() || !h.version.empty())
        std::printf("recorded on: %s (%s, %s), perf %s\n", h.cpuDesc.empty() ? "?" : h.cpuDesc.c_str(),
            h.hostname.empty() ? "?" : h.hostname.c_str(), h.arch.empty() ? "?" : h.arch.c_str(),
            h.version.empty() ? "?" : h.version.c_str());
    if (!h.cmdline.empty()) std::printf("command: %s\n", h.commandLine().c_str());
    for (const auto& b : r.binaries)
        std::printf("binary: %s\n", b.c_str());
    for (const auto& b : r.rejectedBinaries)
        std::printf("binary refused: %s\n", b.c_str());
    if (!r.missingBinaries.empty()) {
        std::printf("binaries not found: %zu (their addresses are shown as module+offset; pass --symfs DIR):",
            r.missingBinaries.size());
        for (std::size_t i = 0; i < r.missingBinaries.size() && i < 3; ++i)
            std::printf(" %s", r.missingBinaries[i].c_str());
        std::printf("%s\n", r.missingBinaries.size() > 3 ? " ..." : "");
    }
    if (r.stats.lost || r.stats.lostSamples)
        std::printf(
            "lost: %" PRIu64 " records (ring full), %" PRIu64 " samples (PMU)\n", r.stats.lost, r.stats.lostSamples);
    if (r.stats.decodeErrors || r.stats.unknownRecords || r.stats.truncated)
        std::printf("warning: %" PRIu64 " records could not be decoded, %" PRIu64 " unknown records skipped%s\n",
            r.stats.decodeErrors, r.stats.unknownRecords, r.stats.truncated ? ", the file is truncated" : "");
    for (const auto& w : h.warnings) // the same header warnings `import` prints
        std::printf("warning: %s\n", w.c_str());
    for (const auto& w : r.stats.warnings)
        std::printf("warning: %s\n", w.c_str());
}

int printLbr(const perfdata::ImportResult& r, std::size_t top)
{
    if (!r.lbrMode) {
        std::fprintf(stderr,
            "rdtscope-cli report: the file has no branch-stack samples "
            "(record with `perf record -b` or `--call-graph lbr`)\n");
        return ExitFailure;
    }
    const auto& g = r.lbr;
    std::printf("\nLBR %s (%s%s): %" PRIu64 " samples, %" PRIu64 " branch entries, %" PRIu64
                " samples without user entries (%" PRIu64 " with kernel entries only)\n",
        r.lbrInfo.modeName().c_str(), std::string(pmu::branchStackSourceName(r.lbrInfo.source)).c_str(),
        r.lbrInfo.typesRecorded ? ", branch types recorded" : ", no branch types", g.samples, g.branches, g.emptyStacks,
        g.kernelOnlyStacks);
    std::printf("edge kinds:");
    for (std::size_t k = 0; k < pmu::kEdgeKinds; ++k) {
        const auto kind = static_cast<pmu::EdgeKind>(k);
        std::printf("%s %s %zu (%" PRIu64 " entries)", k ? "," : "", std::string(pmu::edgeKindName(kind)).c_str(),
            g.edgeCount(kind), g.entryCount(kind));
    }
    std::printf("\nkinds from: branch type %" PRIu64 ", disassembly %" PRIu64 ", call stack %" PRIu64 ", none %" PRIu64
                " entries\n",
        g.entryCount(pmu::EdgeKindFrom::BranchType), g.entryCount(pmu::EdgeKindFrom::Disassembly),
        g.entryCount(pmu::EdgeKindFrom::CallStack), g.entryCount(pmu::EdgeKindFrom::None));
    std::printf("\nHot functions\n%10s %10s  %-32s %s\n", "self", "inclusive", "function", "module");
    for (std::size_t i = 0; i < g.functions.size() && i < top; ++i) {
        const auto& f = g.functions[i];
        std::printf("%10" PRIu64 " %10" PRIu64 "  %-32s %s\n", f.self, f.inclusive, f.name.c_str(), f.module.c_str());
    }
    std::printf("\nTop edges\n%10s %8s %10s  %-7s %s\n", "count", "mispred", "avg cycles", "kind", "from -> to");
    for (std::size_t i = 0; i < g.edges.size() && i < top; ++i) {
        const auto& e = g.edges[i];
        char cycles[24];
        if (e.stats.cycleSamples)
            std::snprintf(cycles, sizeof cycles, "%10.1f", e.stats.averageCycles());
        else
            std::snprintf(cycles, sizeof cycles, "%10s", "-");
        std::printf("%10" PRIu64 " %8s %s  %-7s %s -> %s\n", e.stats.count, pct(e.stats.mispredictRate()).c_str(),
            cycles, std::string(pmu::edgeKindName(e.kind)).c_str(), e.from.c_str(), e.to.c_str());
    }
    return ExitOk;
}

int printStats(const perfdata::ImportResult& r)
{
    const auto& st = r.stats;
    std::printf("\nRecord types: %" PRIu64 " records, %" PRIu64 " bytes", st.records, st.bytes);
    if (st.compressedRecords)
        std::printf(
            " (%" PRIu64 " COMPRESSED records holding %" PRIu64 " bytes)", st.compressedRecords, st.decompressedBytes);
    std::printf("\n%-20s %6s %12s\n", "type", "id", "count");
    for (std::uint32_t t = 0; t < std::size(st.byType); ++t)
        if (st.byType[t]) std::printf("%-20s %6u %12" PRIu64 "\n", pmu::recordTypeName(t).c_str(), t, st.byType[t]);
    std::printf("unknown record types (skipped by their size): %" PRIu64 "\n", st.unknownRecords);
    if (st.skippedPayloadBytes)
        std::printf("payload bytes skipped (TRACING_DATA, AUXTRACE): %" PRIu64 "\n", st.skippedPayloadBytes);
    std::printf("\nHeader features: %zu sections\n%-16s %4s %10s  %s\n", r.header.sections.size(), "feature", "id",
        "bytes", "read");
    for (const auto& f : r.header.sections)
        std::printf("%-16s %4u %10" PRIu64 "  %s\n", perfdata::featureName(f.id).c_str(), f.id, f.bytes,
            f.interpreted ? "read" : "skipped by its size");
    return ExitOk;
}

int printMem(const perfdata::ImportResult& r, std::size_t top)
{
    if (!r.hasMem) {
        std::fprintf(stderr,
            "rdtscope-cli report: the file has no load-latency samples (they need DATA_SRC and "
            "WEIGHT or WEIGHT_STRUCT: record with `perf mem record` or `perf record -d -W`)\n");
        return ExitFailure;
    }
    const auto& m = r.mem;
    std::printf("\nLoad latency: %" PRIu64 " samples, mean %.1f cycles, p50 %u, p99 %u, HITM %" PRIu64
                ", remote %" PRIu64 "\n",
        m.total.count, m.total.mean(), m.total.percentile(0.5), m.total.percentile(0.99), m.total.hitm, m.total.remote);
    std::printf("samples from: %s\n", r.memOrigin.describe().c_str());
    std::printf("\nBy data source\n%-14s %8s\n", "level", "samples");
    for (std::size_t l = 0; l < static_cast<std::size_t>(pmu::MemLevel::Count); ++l)
        if (m.total.byLevel[l])
            std::printf("%-14s %8" PRIu64 "\n", std::string(pmu::memLevelName(static_cast<pmu::MemLevel>(l))).c_str(),
                m.total.byLevel[l]);
    if (m.anyCache)
        std::printf("%" PRIu64 " of the L3 samples name only \"a cache\" (mem_lvl_num ANY_CACHE, as Arm SPE reports)\n",
            m.anyCache);
    if (m.total.count > m.byRegion[0]) { // mem_region filled (Linux 7.0, Diamond Rapids)
        std::printf("\nBy memory region\n%-32s %8s\n", "region", "samples");
        for (std::size_t g = 0; g < m.byRegion.size(); ++g)
            if (m.byRegion[g])
                std::printf(
                    "%-32s %8" PRIu64 "\n", pmu::memRegionName(static_cast<std::uint8_t>(g)).c_str(), m.byRegion[g]);
    }
    std::printf("\nLatency histogram (cycles)\n");
    for (std::size_t b = 0; b < pmu::LoadLatencyReport::kBuckets; ++b) {
        std::uint64_t n = 0;
        for (auto v : m.histogram[b])
            n += v;
        if (!n) continue;
        std::printf("  [%7llu, %7llu) %8" PRIu64 " ", b == 0 ? 0ull : 1ull << b, 1ull << (b + 1), n);
        for (std::size_t l = 0; l < static_cast<std::size_t>(pmu::MemLevel::Count); ++l)
            if (m.histogram[b][l])
                std::printf(" %s:%" PRIu64, std::string(pmu::memLevelName(static_cast<pmu::MemLevel>(l))).c_str(),
                    m.histogram[b][l]);
        std::printf("\n");
    }
    auto table = [&](const char* title, const std::vector<pmu::LatencyRow>& rows, bool lines) {
        std::printf("\n%s\n%8s %8s %6s %6s %5s %6s  %-14s %s\n", title, "samples", "mean", "p50", "p99", "HITM",
            "remote", "level", lines ? "line (function)" : "function (module)");
        for (std::size_t i = 0; i < rows.size() && i < top; ++i) {
            const auto& row = rows[i];
            const auto& s = row.stats;
            std::printf("%8" PRIu64 " %8.1f %6u %6u %5" PRIu64 " %6" PRIu64 "  %-14s %s (%s)\n", s.count, s.mean(),
                s.percentile(0.5), s.percentile(0.99), s.hitm, s.remote,
                std::string(pmu::memLevelName(s.dominantLevel())).c_str(), row.key.c_str(),
                lines ? row.function.c_str() : row.module.c_str());
        }
    };
    table("Top functions", m.functions, false);
    table("Top cache lines", m.lines, true);
    return ExitOk;
}

int runReport(const ReportOptions& o)
{
    perfdata::ImportOptions opt;
    opt.symfs = o.symfs;
    opt.topN = static_cast<std::size_t>(o.top);
    auto r = perfdata::importPerfData(o.file, opt);
    if (!r) {
        std::fprintf(stderr, "rdtscope-cli report: %s\n", r.error().toString().c_str());
        return ExitFailure;
    }
    printHeader(o.file, *r);
    const int printed = o.stats ? printStats(*r) : o.lbr ? printLbr(*r, opt.topN) : printMem(*r, opt.topN);
    const int damage = damagedInputExit("report", o.file, r->stats.damage(), o.salvage);
    return printed != ExitOk ? printed : damage;
}

} // namespace

CommandRun defineReport(CLI::App& cmd)
{
    cmd.footer(
        "Reads a perf.data file (file or pipe mode, zstd-compressed or not) and prints:\n"
        "  --lbr  the branch graph from its LBR samples (`perf record -b` or `--call-graph lbr`): hot functions\n"
        "         with self and inclusive samples, then the top edges (function -> function) with their branch\n"
        "         counts, mispredict rate and average LBR cycles. Counts are branch entries, as `perf report -b`\n"
        "         counts them.\n"
        "  --mem  the load-latency view of `perf mem record` / PEBS load-latency samples: a latency histogram\n"
        "         by data source, then the top functions and 64-byte cache lines by total latency.\n"
        "  --stats  every record type the file holds with its count (records inside COMPRESSED ones included)\n"
        "         and every header feature section with its size, read or skipped.\n"
        "Exit codes: 0 printed, 1 the file is unreadable, damaged or has no such samples, 2 usage error.");
    auto o = std::make_shared<ReportOptions>();
    addPositional(cmd, "FILE", o->file, "the perf.data file")->required();
    auto* view = cmd.add_option_group("view");
    view->add_flag("--lbr", o->lbr, "the branch graph");
    view->add_flag("--mem", o->mem, "the load-latency tables");
    view->add_flag("--stats", o->stats, "every record type with its count, and every header feature");
    view->require_option(1);
    cmd.add_option("--symfs", o->symfs,
           "where to find the profiled binaries: DIR/<recorded path>, DIR/<basename>,\n"
           "or any file in DIR whose build-id matches the recorded one")
        ->type_name("DIR")
        ->take_all();
    addNumber(cmd, "--top", o->top, kTopRows, "N", "rows per table (default 20)");
    cmd.add_flag("--salvage", o->salvage,
        "a damaged file (cut short, undecodable records): report what is\nreadable and exit 0");
    return [o] { return runReport(*o); };
}

} // namespace rdt::cli

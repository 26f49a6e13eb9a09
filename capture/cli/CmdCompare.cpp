// SPDX-License-Identifier: GPL-3.0-or-later
// `rdtscope-cli diff A B`: before/after comparison of two sessions or perf.data files (capture/compare).
#include "Args.h"
#include "Commands.h"

#include "compare/Compare.h"
#include "compare/CompareFormat.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace rdt::cli {

namespace {

const char* const kDiffHelp
    = R"(usage: rdtscope-cli diff A B [--window A:FROM..TO] [--window B:FROM..TO | --between-markers M1,M2]
                         [--normalize duration|instructions] [--csv|--json] [--top N] [--symfs DIR]... [-o OUT]

Compares two recordings: two sessions (.rdts), two perf.data files, or one of each (then only what both hold).
RDT groups are aligned by name and domain: LLC occupancy, total and local bandwidth (mean and p95), the
allocation at the end of each window (ways, MiB, MBA %) and the changes inside it. PMU data is aligned by
function (unresolved addresses as module+offset): TMA categories in points, LBR call edges and hot branches with
share A, share B, delta (points) and ratio (as `perf diff` names them), load latency per data source and per
function (share, count, mean, p99 in cycles). Mismatches are listed, not hidden: a group in one file only,
different CPUs (CPUID family/model), different sampling intervals.
Options:
  --window [A:|B:]FROM..TO  seconds since the recording's start (10..20, ..20, 10..); without A:/B: both
  --between-markers M1,M2   the window from the first marker containing M1 to the next containing M2, in each
                            session (a side with its own --window keeps it)
  --normalize duration      counts per second of window; instructions: per 1000 instructions (perf.data files
                            that sampled an `instructions` event); occupancy and bandwidth are never normalised
  --csv | --json            machine-readable forms (columns in the README); mismatches then go to stderr
  --top N                   items per section (default 10 for the table, all for CSV/JSON; 0 = all)
  --symfs DIR               where to find the binaries profiled in perf.data files (repeatable)
  -o OUT                    write to OUT instead of stdout
Exit codes: 0 compared (mismatches are warnings), 1 a file cannot be read or a window is empty, 2 usage.
)";

int usage(const std::string& why)
{
    std::fprintf(stderr, "rdtscope-cli diff: %s\n%s", why.c_str(), kDiffHelp);
    return ExitUsage;
}

/// Applies one --window value to A, B or both.
bool applyWindow(const std::string& spec, compare::CompareRequest& req, bool& setA, bool& setB, std::string& error)
{
    std::string range = spec;
    bool toA = true, toB = true;
    if (spec.size() > 2 && spec[1] == ':' && (spec[0] == 'A' || spec[0] == 'a' || spec[0] == 'B' || spec[0] == 'b')) {
        toA = spec[0] == 'A' || spec[0] == 'a';
        toB = !toA;
        range = spec.substr(2);
    }
    auto w = compare::parseWindowRange(range);
    if (!w) {
        error = w.error().message + " (" + w.error().advice + ")";
        return false;
    }
    if (toA) req.loadA.window = *w, setA = true;
    if (toB) req.loadB.window = *w, setB = true;
    return true;
}

} // namespace

int cmdCompare(const std::vector<std::string>& argvIn)
{
    std::vector<std::string> argv;
    for (std::size_t i = 0; i < argvIn.size(); ++i)
        argv.push_back(argvIn[i] == "-o" ? "--output" : argvIn[i]);
    auto parsed = Args::parse(
        argv, { "window", "between-markers", "normalize", "top", "symfs", "output" }, { "csv", "json", "help" });
    if (parsed && parsed->has("help")) {
        std::fputs(kDiffHelp, stdout);
        return ExitOk;
    }
    if (!parsed) return usage(parsed.error().toString());
    const Args& args = *parsed;
    if (args.positionals().size() != 2) return usage("give exactly two files, A and B");
    if (args.has("csv") && args.has("json")) return usage("--csv and --json exclude each other");

    compare::CompareRequest req;
    req.pathA = args.positionals()[0];
    req.pathB = args.positionals()[1];
    req.loadA.symfs = req.loadB.symfs = args.values("symfs");
    bool setA = false, setB = false;
    std::string error;
    for (const auto& w : args.values("window"))
        if (!applyWindow(w, req, setA, setB, error)) return usage(error);
    if (auto m = args.value("between-markers")) {
        auto w = compare::parseMarkerWindow(*m);
        if (!w) return usage(w.error().message + " (" + w.error().advice + ")");
        if (!setA) req.loadA.window = *w;
        if (!setB) req.loadB.window = *w;
    }
    if (auto n = args.value("normalize")) {
        auto mode = compare::parseNormalize(*n);
        if (!mode) return usage(mode.error().message);
        req.options.normalize = *mode;
    }
    const bool machine = args.has("csv") || args.has("json");
    auto top = args.number("top", machine ? 0 : 10, { 0, 1e9, true });
    if (!top) return usage(top.error().message);

    auto result = compare::compareFiles(req);
    if (!result) {
        std::fprintf(stderr, "rdtscope-cli diff: %s\n", result.error().toString().c_str());
        return ExitFailure;
    }
    const auto n = static_cast<std::size_t>(*top);
    const std::string text = args.has("csv") ? compare::formatCsv(*result, n)
        : args.has("json")                   ? compare::formatJson(*result, n)
                                             : compare::formatText(*result, n);
    if (machine)
        for (const auto& m : result->mismatches)
            std::fprintf(stderr, "warning: %s\n", m.text.c_str());
    FILE* out = stdout;
    if (auto path = args.value("output")) {
        out = std::fopen(path->c_str(), "w");
        if (!out) {
            std::fprintf(stderr, "rdtscope-cli diff: cannot write %s: %s\n", path->c_str(), std::strerror(errno));
            return ExitFailure;
        }
    }
    const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
    const bool closed = out == stdout ? std::fflush(out) == 0 : std::fclose(out) == 0;
    if (!written || !closed) {
        std::fprintf(stderr, "rdtscope-cli diff: writing the result failed: %s\n", std::strerror(errno));
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace rdt::cli

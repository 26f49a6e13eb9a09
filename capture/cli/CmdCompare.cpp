// SPDX-License-Identifier: GPL-3.0-or-later
// `rdtscope-cli diff A B`: before/after comparison of two sessions or perf.data files (capture/compare).
#include "Commands.h"
#include "Options.h"

#include "compare/Compare.h"
#include "compare/CompareFormat.h"
#include "core/OutputFile.h"
#include "core/TerminalText.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

namespace rdt::cli {

namespace {

struct DiffOptions {
    std::string a, b;
    std::vector<std::string> windows;
    std::string betweenMarkers, aroundMarker, normalize;
    std::optional<std::string> output; ///< given, even empty (an empty name is refused, not stdout)
    bool csv = false, json = false, force = false;
    std::optional<double> top;
    std::vector<std::string> symfs;
};

/// "B:10..20" -> which sides ("A:", "B:" or neither: both) and the range text.
struct WindowSpec {
    bool toA = true, toB = true;
    std::string range;
};

WindowSpec splitWindow(const std::string& spec)
{
    WindowSpec w { true, true, spec };
    if (spec.size() > 2 && spec[1] == ':' && (spec[0] == 'A' || spec[0] == 'a' || spec[0] == 'B' || spec[0] == 'b')) {
        w.toA = spec[0] == 'A' || spec[0] == 'a';
        w.toB = !w.toA;
        w.range = spec.substr(2);
    }
    return w;
}

int runDiff(const DiffOptions& o)
{
    compare::CompareRequest req;
    req.pathA = o.a;
    // One session with --around-marker is compared with itself: the span before the marker against the one after.
    req.pathB = o.b.empty() ? o.a : o.b;
    req.loadA.symfs = req.loadB.symfs = o.symfs;
    // The values passed their rules at parse time (checkedBy in defineCompare); here they are applied.
    bool setA = false, setB = false;
    for (const auto& spec : o.windows) {
        const auto w = splitWindow(spec);
        const auto window = *compare::parseWindowRange(w.range);
        if (w.toA) req.loadA.window = window, setA = true;
        if (w.toB) req.loadB.window = window, setB = true;
    }
    if (!o.betweenMarkers.empty()) {
        const auto w = *compare::parseMarkerWindow(o.betweenMarkers);
        if (!setA) req.loadA.window = w;
        if (!setB) req.loadB.window = w;
    }
    if (!o.aroundMarker.empty()) {
        const auto [before, after] = *compare::parseAroundMarker(o.aroundMarker);
        if (!setA) req.loadA.window = before;
        if (!setB) req.loadB.window = after;
    }
    if (!o.normalize.empty()) req.options.normalize = *compare::parseNormalize(o.normalize);
    const bool machine = o.csv || o.json;
    const double top = o.top.value_or(machine ? 0 : 10);

    // The output rule before any reading: a refused -o costs nothing and touches nothing.
    std::optional<OutputFile> file;
    if (o.output) {
        const auto form = o.csv ? compare::DiffForm::Csv : o.json ? compare::DiffForm::Json : compare::DiffForm::Text;
        auto created = OutputFile::create(*o.output, compare::diffOutputRule(form, o.force, req.pathA, req.pathB));
        if (!created) {
            std::fprintf(stderr, "rdtscope-cli diff: %s\n", created.error().toString().c_str());
            return ExitFailure;
        }
        file.emplace(std::move(*created));
    }
    auto result = compare::compareFiles(req);
    if (!result) {
        std::fprintf(stderr, "rdtscope-cli diff: %s\n", result.error().toString().c_str());
        return ExitFailure;
    }
    const auto n = static_cast<std::size_t>(top);
    // The table holds group names, paths and symbols from the files: no control character reaches a terminal.
    const std::string text = o.csv ? compare::formatCsv(*result, n)
        : o.json                   ? compare::formatJson(*result, n)
                                   : escapeControlCharacters(compare::formatText(*result, n), true);
    if (machine)
        for (const auto& m : result->mismatches)
            std::fprintf(stderr, "warning: %s\n", escapeControlCharacters(m.text).c_str());
    if (file) {
        std::fwrite(text.data(), 1, text.size(), file->stream());
        if (auto committed = file->commit(); !committed) {
            std::fprintf(stderr, "rdtscope-cli diff: %s\n", committed.error().toString().c_str());
            return ExitFailure;
        }
        return ExitOk;
    }
    const bool written = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
    if (!written || std::fflush(stdout) != 0) {
        std::fprintf(stderr, "rdtscope-cli diff: writing the result failed: %s\n", std::strerror(errno));
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace

CommandRun defineCompare(CLI::App& cmd)
{
    cmd.footer(
        "Compares two recordings: two sessions (.rdts), two perf.data files, or one of each (then only what both\n"
        "hold). RDT groups are aligned by name and domain: LLC occupancy, total and local bandwidth (mean and p95),\n"
        "the allocation at the end of each window (ways, MiB, MBA %) and the changes inside it. PMU data is aligned\n"
        "by function (unresolved addresses as module+offset): TMA categories in points, LBR call edges and hot\n"
        "branches with share A, share B, delta (points) and ratio (as `perf diff` names them), load latency per\n"
        "data source and per function (share, count, mean, p99 in cycles). Mismatches are listed, not hidden: a\n"
        "group in one file only, different CPUs (CPUID family/model), different sampling intervals.\n"
        "With one session and --around-marker M, the same file is compared with itself: A is the span before the\n"
        "first marker containing M (from the marker before it), B the span after it (from the next marker to the one\n"
        "after): `diff blame.rdts --around-marker 'blame: contain:'` shows a `blame --contain --record` run's\n"
        "victim and culprit before and after the containment.\n"
        "Exit codes: 0 compared (mismatches are warnings), 1 a file cannot be read or a window is empty, 2 usage.");
    auto o = std::make_shared<DiffOptions>();
    addPositional(cmd, "A", o->a, "the first session or perf.data file")->required();
    addPositional(cmd, "B", o->b, "the second one (left out with --around-marker: A against itself)");
    auto* format = cmd.add_option_group("format");
    format->add_flag("--csv", o->csv, "CSV (columns in the README); mismatches then go to stderr");
    format->add_flag("--json", o->json, "JSON; mismatches then go to stderr");
    format->require_option(0, 1);
    cmd.add_option("--window", o->windows,
           "seconds since the recording's start (10..20, ..20, 10..); A: or B: picks one\n"
           "side, without it both (repeatable)")
        ->type_name("[A:|B:]FROM..TO")
        ->take_all()
        ->check(checkedBy([](const std::string& spec) { return compare::parseWindowRange(splitWindow(spec).range); }));
    cmd.add_option("--between-markers", o->betweenMarkers,
           "the window from the first marker containing M1 to the next containing M2,\n"
           "in each session (a side with its own --window keeps it)")
        ->type_name("M1,M2")
        ->check(checkedBy(compare::parseMarkerWindow));
    auto* around = cmd.add_option("--around-marker", o->aroundMarker,
                          "A: the span before the first marker containing M (from the marker before it);\n"
                          "B: the span after it (from the next marker to the one after, or the end).\n"
                          "B may be left out: one session is compared with itself")
                       ->type_name("M")
                       ->check(checkedBy(compare::parseAroundMarker));
    around->excludes("--between-markers");
    cmd.add_option("--normalize", o->normalize,
           "duration: counts per second of window; instructions: per 1000 instructions\n"
           "(perf.data files that sampled an `instructions` event); occupancy and\n"
           "bandwidth are never normalised")
        ->type_name("duration|instructions")
        ->check(checkedBy(compare::parseNormalize));
    addNumber(cmd, "--top", o->top, { 0, 1e9, true }, "N",
        "items per section (default 10 for the table, all for CSV/JSON; 0 = all)");
    cmd.add_option("--symfs", o->symfs, "where to find the binaries profiled in perf.data files (repeatable)")
        ->type_name("DIR")
        ->take_all();
    cmd.add_option(
           "-o,--output", o->output, "write to OUT instead of stdout (never A or B; an existing OUT only with --force)")
        ->type_name("OUT");
    cmd.add_flag("--force", o->force, "with -o: replace OUT if it is a comparison of the same form");
    return [o]() -> int {
        if (o->b.empty() && o->aroundMarker.empty()) {
            std::fprintf(stderr,
                "rdtscope-cli diff: B is missing\nfix: name two recordings, or one session with --around-marker M to "
                "compare the spans before and after one of its markers\n");
            return ExitUsage;
        }
        return runDiff(*o);
    };
}

} // namespace rdt::cli

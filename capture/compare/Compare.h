// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two Profiles side by side (issue #20): RDT series aligned by group name and domain, TMA by level and metric,
// LBR edges by caller/callee function names (an unresolved address is "module+0xOFFSET", so addresses are aligned
// within their module), load latency by data source and by function. Every row keeps both values, the difference
// and the ratio; rows present on one side only are kept and listed as mismatches, never dropped.
//
// Shares and deltas follow `perf diff`: a row's share is its count over the side's total, "delta" is share B minus
// share A in percentage points, "ratio" is count B over count A (perf diff's -c ratio, on normalised counts).

#include "Profile.h"

#include <optional>
#include <string>
#include <vector>

namespace rdt::compare {

enum class Normalize { None, Duration, Instructions };
Result<Normalize> parseNormalize(const std::string& text);
const char* normalizeName(Normalize n);

enum class Section { Rdt, Allocation, Tma, CallEdge, HotBranch, LatencySource, LatencyRegion, LatencyFunction };
/// "rdt", "allocation", "tma", "lbr-call", "lbr-branch", "latency-source", "latency-region", "latency-function"
const char* sectionName(Section s);

struct DiffRow {
    Section section = Section::Rdt;
    std::string item; ///< "victim", "backend_bound", "main -> compute_flag", "Local DRAM"
    std::string group; ///< RDT and allocation rows
    int domain = -1; ///< RDT and allocation rows, else -1
    std::string metric; ///< "occupancy_mean", "total_bw_p95", "share", "count", "mean", "p99", "ways", ...
    std::string unit; ///< "bytes", "B/s", "points", "count", "cycles", "ways", "MB", "" (text values)
    std::optional<double> a, b; ///< absent: the item is not on that side
    std::string textA, textB; ///< allocation values ("7ff"), else empty
    /// Share rows (LBR, latency count): the counts behind the shares, normalised as asked; the ratio uses them.
    std::optional<double> countA, countB;
    /// When > 0: changes are ranked by |b - a| / scale (RDT rows: the metric's largest value in either file), so a
    /// group going from 27 kB/s to 0 does not outrank one losing 15 GB/s. Else by the relative change.
    double scale = 0;
    bool shareRow() const { return unit == "%" && (countA || countB); }
    /// b - a; share rows count a missing side as 0 (as perf diff does), other rows have no delta then.
    std::optional<double> delta() const;
    /// b / a (share rows: countB / countA); nullopt when either is missing or a is 0.
    std::optional<double> ratio() const;
    double changeScore() const; ///< how large the change is, for sorting (2 when one-sided)
};

struct Mismatch {
    std::string kind; ///< "group-only-in-a", "group-only-in-b", "machine", "interval", "symbols", "window", ...
    std::string text;
};

struct CompareOptions {
    Normalize normalize = Normalize::None;
};

struct Comparison {
    Profile a, b;
    Normalize normalize = Normalize::None; ///< what was applied (None when asked for but impossible: see mismatches)
    std::vector<DiffRow> rows; ///< by section, then by the size of the change (largest first)
    std::vector<Mismatch> mismatches;
    std::vector<std::string> onlyInA, onlyInB; ///< functions seen on one side only (LBR and latency)
};

Comparison compareProfiles(Profile a, Profile b, const CompareOptions& options = {});

/// Loads both files with their windows and compares them.
struct CompareRequest {
    std::string pathA, pathB;
    LoadOptions loadA, loadB;
    CompareOptions options;
};
Result<Comparison> compareFiles(const CompareRequest& request);

} // namespace rdt::compare

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One pass over a perf.data file into the shared PMU aggregators: symbols (pmu::Symbolizer, with binaries found
// through SymbolSearch), the LBR branch graph (any-branch or call-stack mode, from the attr), load latency (samples
// with WEIGHT/WEIGHT_STRUCT and DATA_SRC), and samples per symbol (what `perf report --sort symbol` counts).

#include "LoadLatencyOrigin.h"
#include "PerfDataReader.h"
#include "pmu/BranchGraph.h"
#include "pmu/LoadLatency.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rdt::perfdata {

struct ImportOptions {
    std::vector<std::string> symfs; ///< directories searched for the recorded binaries (--symfs)
    ReadOptions read; ///< progress / cancellation
    std::size_t topN = 20; ///< rows in the load-latency tables
    /// Optional: every decoded record after it was aggregated (e.g. a session writer).
    std::function<void(const pmu::DecodedRecord&)> onRecord;
    /// Optional: samples for which it returns false are left out of every aggregate (a time window; compare).
    std::function<bool(const pmu::Sample&)> keepSample;
    /// Threads decoding a file: 1 the pipelined single pass (a reading thread feeds the decoding one), 2 both
    /// threads read and decode (PerfDataReader::readSharded; file mode without per-record callbacks), 0 two when
    /// a core is idle (1-minute load average below the processors' count minus one), else one: on a busy machine
    /// the kernel's autogroup scheduling gives the import one share of the CPU whatever its thread count, and the
    /// pipelined pass, whose threads sleep and wake often, got it sooner (README "Performance").
    unsigned threads = 0;
};

struct SymbolCount {
    std::string symbol;
    std::string module;
    std::uint64_t samples = 0;
    std::uint64_t period = 0;
};

struct ImportResult {
    ReadStats stats;
    HeaderInfo header;
    bool pipeMode = false;
    std::uint64_t samples = 0;
    std::optional<pmu::BranchGraph::Mode> lbrMode; ///< set when samples carried branch stacks
    pmu::BranchGraph::Info lbrInfo; ///< mode, whether entries carry branch types, source (when lbrMode is set)
    pmu::BranchGraphReport lbr;
    bool hasMem = false; ///< samples carried DATA_SRC and a weight
    pmu::LoadLatencyReport mem;
    LoadLatencyOrigin memOrigin; ///< the facility behind the load-latency samples (when hasMem)
    std::vector<SymbolCount> bySymbol; ///< samples per sample-IP symbol, descending
    std::vector<std::string> binaries; ///< "recorded path -> local file" for every executable mapping found
    std::vector<std::string> missingBinaries; ///< recorded paths not found (their addresses stay module+offset)
    std::vector<std::string> rejectedBinaries; ///< "recorded path: why the file there is not it" (another build,
                                               ///< another architecture)
};

/// Reads `path` once ("-": a pipe-mode stream on stdin) and aggregates everything. Errors only when the file
/// cannot be read at all.
Result<ImportResult> importPerfData(const std::string& path, const ImportOptions& options = {});

} // namespace rdt::perfdata

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The synthetic program the simulated PMU "runs": a call tree of named functions laid out in an in-memory module,
// each with a loop (a conditional back-edge that sometimes mispredicts), some work (uops), loads with an access
// pattern over a memory region, and calls to children. Its symbol table is what the Symbolizer resolves.

#include "core/Result.h"
#include "pmu/Symbolizer.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rdt::pmu {

enum class AccessPattern : std::uint8_t {
    None,
    Sequential, ///< streams through the region with `stride`
    Random, ///< uniform over the region (a hash table probe)
    PointerChase, ///< dependent random loads: every miss stalls fully
    SharedWrite, ///< another core writes these lines too (HITM on our loads)
};

struct SimFunction {
    std::string name;
    std::uint64_t start = 0, size = 0x200; ///< laid out by SimProgram::layout()
    std::uint32_t uopsPerIter = 8;
    std::uint32_t itersMin = 1, itersMax = 1;
    std::uint32_t loadsPerIter = 0;
    AccessPattern pattern = AccessPattern::None;
    std::uint64_t regionBase = 0, regionBytes = 0;
    std::uint32_t stride = 64;
    double overlap = 0.5; ///< fraction of latency beyond L1 that stalls the pipeline (memory-level parallelism)
    double loopMispredict = 0.02; ///< probability the loop back-edge is mispredicted
    double feStallPerIter = 0.2; ///< frontend stall cycles per iteration
    double coreStallPerIter = 0.3; ///< execution-port / divider stall cycles per iteration
    std::vector<std::pair<std::size_t, double>> calls; ///< (callee index, probability per iteration)

    std::uint64_t loopTop() const { return start + 0x20; }
    std::uint64_t loopBranch() const { return start + 0x60; }
    std::uint64_t loadIp(std::uint32_t i) const { return start + 0x30 + 4u * (i % 8u); }
    std::uint64_t callSite(std::size_t k) const { return start + 0x80 + 8u * k; }
    std::uint64_t retIp() const { return start + size - 0x10; }
};

struct SimProgram {
    std::string module = "rdtscope-sim-app";
    std::string path = "/simulated/rdtscope-sim-app";
    std::uint64_t base = 0x401000;
    std::vector<SimFunction> functions; ///< functions[0] is the entry (main)

    /// The demo: a request server with parse/lookup/render/log paths; lookup_user probes a 64 MiB hash table and
    /// walks collision chains (cache misses), render_page streams a 256 KiB template (L2), log_access updates
    /// counters another core also writes (HITM). `memoryScale` multiplies the big regions (more misses).
    static SimProgram demo(double memoryScale = 1.0);
    /// An interpreter whose many large handlers miss the instruction cache: frontend bound (SimProgramCatalog.h).
    static SimProgram frontendBound();
    /// A hash join whose probes and chain walks miss the caches: backend (memory) bound. `memoryScale` multiplies
    /// its tables, which for this program is what a smaller cache would do.
    static SimProgram backendBound(double memoryScale = 1.0);
    /// By name: "server" (or "", the demo), "frontend", "backend".
    static Result<SimProgram> named(const std::string& name, double memoryScale = 1.0);
    void layout(); ///< assigns start addresses
    std::vector<SymbolRange> symbols() const;
    std::uint64_t end() const;
};

} // namespace rdt::pmu

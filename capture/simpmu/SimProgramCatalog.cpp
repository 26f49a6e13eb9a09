// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated PMU's synthetic programs: the request server, and for lessons that contrast TMA categories
// (docs/LESSONS.md) one whose fetches stall (frontend bound) and one whose loads miss (backend bound, memory).
// Simulated by construction: the stalls are parameters of the functions, not measured on any CPU.
#include "SimProgramCatalog.h"

namespace rdt::pmu {

namespace {

std::uint64_t scaledBytes(std::uint64_t bytes, double memoryScale)
{
    const auto v = static_cast<std::uint64_t>(static_cast<double>(bytes) * memoryScale);
    return v < 4096 ? 4096 : v;
}

} // namespace

SimProgram demoProgram(double memoryScale)
{
    SimProgram p;
    auto scaled = [memoryScale](std::uint64_t bytes) { return scaledBytes(bytes, memoryScale); };
    enum : std::size_t {
        Main,
        Serve,
        Parse,
        Tokenize,
        Classify,
        Lookup,
        Hash,
        Probe,
        Walk,
        Render,
        Format,
        Copy,
        Log,
        Update,
        Count
    };
    p.functions.resize(Count);
    auto& f = p.functions;
    f[Main] = { .name = "main", .uopsPerIter = 20, .calls = { { Serve, 1.0 } } };
    f[Serve] = { .name = "serve_requests",
        .uopsPerIter = 30,
        .itersMin = 50,
        .itersMax = 80,
        .loopMispredict = 0.01,
        .calls = { { Parse, 0.30 }, { Lookup, 0.40 }, { Render, 0.20 }, { Log, 0.10 } } };
    f[Parse] = { .name = "parse_request",
        .uopsPerIter = 24,
        .itersMin = 2,
        .itersMax = 6,
        .loadsPerIter = 2,
        .pattern = AccessPattern::Sequential,
        .regionBase = 0x10000000,
        .regionBytes = 16 * 1024,
        .stride = 8,
        .loopMispredict = 0.05,
        .calls = { { Tokenize, 0.8 } } };
    f[Tokenize] = { .name = "tokenize",
        .uopsPerIter = 16,
        .itersMin = 8,
        .itersMax = 24,
        .loadsPerIter = 1,
        .pattern = AccessPattern::Sequential,
        .regionBase = 0x10000000,
        .regionBytes = 16 * 1024,
        .stride = 1,
        .loopMispredict = 0.12,
        .calls = { { Classify, 0.5 } } };
    f[Classify] = { .name = "classify_char",
        .uopsPerIter = 12,
        .itersMin = 1,
        .itersMax = 2,
        .loopMispredict = 0.2,
        .coreStallPerIter = 2.0,
        .calls = {} };
    f[Lookup] = { .name = "lookup_user",
        .uopsPerIter = 18,
        .itersMin = 1,
        .itersMax = 3,
        .calls = { { Hash, 1.0 }, { Probe, 1.0 }, { Walk, 0.6 } } };
    f[Hash] = { .name = "hash_key",
        .uopsPerIter = 40,
        .itersMin = 4,
        .itersMax = 8,
        .loopMispredict = 0.01,
        .coreStallPerIter = 3.0,
        .calls = {} };
    f[Probe] = { .name = "probe_table",
        .uopsPerIter = 10,
        .itersMin = 1,
        .itersMax = 4,
        .loadsPerIter = 2,
        .pattern = AccessPattern::Random,
        .regionBase = 0x20000000,
        .regionBytes = scaled(64ull << 20),
        .overlap = 0.6,
        .loopMispredict = 0.08,
        .calls = {} };
    f[Walk] = { .name = "walk_collisions",
        .uopsPerIter = 6,
        .itersMin = 1,
        .itersMax = 6,
        .loadsPerIter = 1,
        .pattern = AccessPattern::PointerChase,
        .regionBase = 0x100020000000ull,
        .regionBytes = scaled(8ull << 20),
        .overlap = 1.0,
        .loopMispredict = 0.15,
        .calls = {} };
    f[Render] = { .name = "render_page",
        .uopsPerIter = 22,
        .itersMin = 2,
        .itersMax = 4,
        .calls = { { Format, 0.7 }, { Copy, 0.9 } } };
    f[Format] = { .name = "format_number",
        .uopsPerIter = 28,
        .itersMin = 2,
        .itersMax = 5,
        .loopMispredict = 0.1,
        .coreStallPerIter = 1.5,
        .calls = {} };
    f[Copy] = { .name = "copy_template",
        .uopsPerIter = 8,
        .itersMin = 16,
        .itersMax = 32,
        .loadsPerIter = 2,
        .pattern = AccessPattern::Sequential,
        .regionBase = 0x30000000,
        .regionBytes = 256 * 1024,
        .stride = 32,
        .overlap = 0.2,
        .loopMispredict = 0.01,
        .calls = {} };
    f[Log] = { .name = "log_access", .uopsPerIter = 14, .calls = { { Update, 1.0 } } };
    f[Update] = { .name = "update_counters",
        .uopsPerIter = 6,
        .itersMin = 2,
        .itersMax = 4,
        .loadsPerIter = 1,
        .pattern = AccessPattern::SharedWrite,
        .regionBase = 0x40000000,
        .regionBytes = 4096,
        .overlap = 0.9,
        .calls = {} };
    p.layout();
    return p;
}

SimProgram frontendBoundProgram()
{
    // An interpreter: a dispatch loop calls many small opcode handlers spread over a large code footprint, so
    // instruction fetches miss the instruction cache and the decoders starve; its data is a small stack in L1.
    SimProgram p;
    p.module = "rdtscope-sim-interp";
    p.path = "/simulated/rdtscope-sim-interp";
    constexpr std::size_t kHandlers = 8;
    p.functions.resize(2 + kHandlers);
    auto& f = p.functions;
    f[0] = { .name = "main", .uopsPerIter = 20, .calls = { { 1, 1.0 } } };
    f[1] = { .name = "dispatch_loop",
        .uopsPerIter = 12,
        .itersMin = 100,
        .itersMax = 200,
        .loopMispredict = 0.01,
        .feStallPerIter = 3.0,
        .calls = {} };
    static const char* const names[kHandlers]
        = { "op_load", "op_store", "op_add", "op_call", "op_return", "op_branch", "op_compare", "op_push" };
    for (std::size_t i = 0; i < kHandlers; ++i) {
        f[1].calls.push_back({ 2 + i, 1.0 / kHandlers });
        f[2 + i] = { .name = names[i],
            .size = 0x2000, // large handlers: the code does not fit the instruction cache
            .uopsPerIter = 10,
            .itersMin = 1,
            .itersMax = 3,
            .loadsPerIter = 1,
            .pattern = AccessPattern::Sequential,
            .regionBase = 0x10000000,
            .regionBytes = 4096, // the interpreter's stack: L1 hits
            .stride = 8,
            .loopMispredict = 0.02,
            .feStallPerIter = 4.0,
            .coreStallPerIter = 0.2,
            .calls = {} };
    }
    p.layout();
    return p;
}

SimProgram backendBoundProgram(double memoryScale)
{
    // A hash join: probes a large hash table at random and walks collision chains, so loads miss every cache level
    // and the pipeline waits for memory. `memoryScale` multiplies the tables (as if the cache had shrunk).
    SimProgram p;
    p.module = "rdtscope-sim-join";
    p.path = "/simulated/rdtscope-sim-join";
    p.functions.resize(5);
    auto& f = p.functions;
    f[0] = { .name = "main", .uopsPerIter = 20, .calls = { { 1, 1.0 } } };
    f[1] = { .name = "join_rows",
        .uopsPerIter = 16,
        .itersMin = 50,
        .itersMax = 80,
        .loopMispredict = 0.01,
        .feStallPerIter = 0.1,
        .calls = { { 2, 1.0 }, { 3, 0.5 }, { 4, 0.3 } } };
    f[2] = { .name = "probe_hash",
        .uopsPerIter = 40,
        .itersMin = 1,
        .itersMax = 3,
        .loadsPerIter = 1,
        .pattern = AccessPattern::Random,
        .regionBase = 0x20000000,
        .regionBytes = scaledBytes(4ull << 20, memoryScale),
        .overlap = 0.3, // independent probes overlap their misses
        .loopMispredict = 0.02,
        .feStallPerIter = 0.05,
        .calls = {} };
    f[3] = { .name = "walk_chain",
        .uopsPerIter = 24,
        .itersMin = 1,
        .itersMax = 4,
        .loadsPerIter = 1,
        .pattern = AccessPattern::PointerChase,
        .regionBase = 0x60000000, // local memory (the request server's chains are on the other socket)
        .regionBytes = scaledBytes(2ull << 20, memoryScale),
        .overlap = 0.5,
        .loopMispredict = 0.05,
        .feStallPerIter = 0.05,
        .calls = {} };
    f[4] = { .name = "emit_row",
        .uopsPerIter = 20,
        .itersMin = 1,
        .itersMax = 2,
        .loopMispredict = 0.01,
        .feStallPerIter = 0.1,
        .coreStallPerIter = 0.5,
        .calls = {} };
    p.layout();
    return p;
}

Result<SimProgram> namedProgram(const std::string& name, double memoryScale)
{
    if (name.empty() || name == "server") return demoProgram(memoryScale);
    if (name == "frontend") return frontendBoundProgram();
    if (name == "backend") return backendBoundProgram(memoryScale);
    return makeError("no simulated program '" + name + "'",
        "the simulated PMU runs server (the request server, default), frontend (an interpreter whose fetches "
        "stall) or backend (a hash join whose loads miss)");
}

} // namespace rdt::pmu

// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated PMU's other synthetic programs, for lessons that contrast TMA categories (docs/LESSONS.md): one
// whose fetches stall (frontend bound) and one whose loads miss (backend bound, memory). Simulated by construction:
// the stalls are parameters of the functions, not measured on any CPU.
#include "SimProgram.h"

namespace rdt::pmu {

namespace {

std::uint64_t scaledBytes(std::uint64_t bytes, double memoryScale)
{
    const auto v = static_cast<std::uint64_t>(static_cast<double>(bytes) * memoryScale);
    return v < 4096 ? 4096 : v;
}

} // namespace

SimProgram SimProgram::frontendBound()
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

SimProgram SimProgram::backendBound(double memoryScale)
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

Result<SimProgram> SimProgram::named(const std::string& name, double memoryScale)
{
    if (name.empty() || name == "server") return demo(memoryScale);
    if (name == "frontend") return frontendBound();
    if (name == "backend") return backendBound(memoryScale);
    return makeError("no simulated program '" + name + "'",
        "the simulated PMU runs server (the request server, default), frontend (an interpreter whose fetches "
        "stall) or backend (a hash join whose loads miss)");
}

} // namespace rdt::pmu

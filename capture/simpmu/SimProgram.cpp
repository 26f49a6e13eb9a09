// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimProgram.h"

namespace rdt::pmu {

void SimProgram::layout()
{
    std::uint64_t at = base;
    for (auto& f : functions) {
        f.start = at;
        at += f.size;
    }
}

std::uint64_t SimProgram::end() const
{
    return functions.empty() ? base : functions.back().start + functions.back().size;
}

std::vector<SymbolRange> SimProgram::symbols() const
{
    std::vector<SymbolRange> out;
    for (const auto& f : functions)
        out.push_back({ f.start, f.size, f.name });
    return out;
}

SimProgram SimProgram::demo(double memoryScale)
{
    SimProgram p;
    auto scaled = [memoryScale](std::uint64_t bytes) {
        const auto v = static_cast<std::uint64_t>(static_cast<double>(bytes) * memoryScale);
        return v < 4096 ? 4096 : v;
    };
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

} // namespace rdt::pmu

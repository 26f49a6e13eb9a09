// SPDX-License-Identifier: GPL-3.0-or-later
#include "Workload.h"

#include "core/Text.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <numeric>

namespace rdt::sim {

const char* patternName(Pattern p)
{
    switch (p) {
    case Pattern::Idle:
        return "idle";
    case Pattern::Stream:
        return "stream";
    case Pattern::Random:
        return "random";
    case Pattern::Chase:
        return "chase";
    case Pattern::Mix:
        return "mix";
    }
    return "?";
}

Result<Pattern> parsePattern(const std::string& name)
{
    for (Pattern p : { Pattern::Idle, Pattern::Stream, Pattern::Random, Pattern::Chase, Pattern::Mix })
        if (name == patternName(p)) return p;
    return errnoError(EINVAL, "unknown access pattern '" + name + "'", "use idle, stream, random, chase or mix");
}

double WorkloadSpec::effectiveMlp() const
{
    if (mlp > 0) return mlp;
    switch (pattern) {
    case Pattern::Stream:
        return 20;
    case Pattern::Random:
        return 6;
    case Pattern::Chase:
        return 1;
    case Pattern::Mix:
        return 4;
    case Pattern::Idle:
        break;
    }
    return 1;
}

Result<std::uint64_t> parseSize(const std::string& text)
{
    std::size_t used = 0;
    const auto v = parseFiniteDouble(text, &used);
    if (!v || *v < 0) return errnoError(EINVAL, "bad size '" + text + "'", "write e.g. 8M, 512KiB, 1G or a byte count");
    std::string unit = text.substr(used);
    double mult = 1;
    if (!unit.empty()) {
        char u = static_cast<char>(std::toupper(static_cast<unsigned char>(unit[0])));
        std::string rest = unit.substr(1);
        if (u == 'K')
            mult = 1024.0;
        else if (u == 'M')
            mult = 1024.0 * 1024;
        else if (u == 'G')
            mult = 1024.0 * 1024 * 1024;
        else if (u == 'B' && rest.empty())
            mult = 1;
        else
            return errnoError(EINVAL, "bad size unit in '" + text + "'", "use K, M or G (binary), e.g. 24M");
        if (u != 'B' && !(rest.empty() || rest == "B" || rest == "iB"))
            return errnoError(EINVAL, "bad size unit in '" + text + "'", "use K, M or G (binary), e.g. 24M");
    }
    // Checked before the conversion: a double beyond 2^64 converted to an integer is undefined behaviour.
    if (*v * mult > static_cast<double>(kMaxSizeBytes))
        return errnoError(EINVAL, "size '" + text + "' is larger than the simulator's limit of 1 PiB",
            "working sets are addresses in a simulated 64-bit space; use at most 1024T");
    return static_cast<std::uint64_t>(*v * mult);
}

Status applyWorkloadSetting(WorkloadSpec& s, const std::string& key, const std::string& value)
{
    auto number = [&](double& out, double lo, double hi) -> Status {
        std::size_t used = 0;
        const auto v = parseFiniteDouble(value, &used);
        if (!v || used != value.size() || *v < lo || *v > hi)
            return errnoError(EINVAL, "bad value '" + value + "' for " + key,
                "expected a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        out = *v;
        return {};
    };
    if (key == "pattern") {
        auto p = parsePattern(value);
        if (!p) return p.error();
        s.pattern = *p;
        return {};
    }
    if (key == "ws" || key == "code") {
        auto n = parseSize(value);
        if (!n) return n.error();
        if (*n < 64) return errnoError(EINVAL, key + " must be at least one cache line (64 bytes)");
        (key == "ws" ? s.workingSet : s.codeSize) = *n;
        return {};
    }
    if (key == "code_fraction") return number(s.codeFraction, 0, 1);
    if (key == "write") return number(s.writeFraction, 0, 1);
    if (key == "compute") return number(s.computeCycles, 0, 1e6);
    if (key == "rate") {
        // rate accepts K/M/G decimal multipliers: 50M = 50e6 lines per second.
        std::string v = value;
        double mult = 1;
        if (!v.empty() && (v.back() == 'K' || v.back() == 'M' || v.back() == 'G')) {
            mult = v.back() == 'K' ? 1e3 : v.back() == 'M' ? 1e6 : 1e9;
            v.pop_back();
        }
        std::size_t used = 0;
        const auto r = parseFiniteDouble(v, &used);
        if (!r || used != v.size() || *r < 0 || *r * mult > 1e15)
            return errnoError(
                EINVAL, "bad rate '" + value + "'", "lines per second from 0 (unlimited) to 1000000G, e.g. 50M");
        s.rate = *r * mult;
        return {};
    }
    if (key == "node") {
        double n = 0;
        if (auto st = number(n, -1, 63); !st) return st;
        s.memoryNode = static_cast<int>(n);
        return {};
    }
    if (key == "mlp") return number(s.mlp, 0, 64);
    return errnoError(EINVAL, "unknown workload setting '" + key + "'",
        "known: pattern ws code code_fraction write compute rate node mlp");
}

AddressGenerator::AddressGenerator(
    const WorkloadSpec& spec, std::uint64_t regionBase, std::uint32_t sampling, std::uint64_t seed)
    : m_spec(spec)
    , m_dataBase(regionBase)
    , m_codeBase(regionBase + (1ull << 36))
    , m_stride(std::uint64_t { sampling } * 64)
    , m_codeChance(threshold(spec.codeFraction))
    , m_writeChance(threshold(spec.writeFraction))
    , m_branchChance(threshold(1.0 / 16))
    , m_state(seed * 0x9E3779B97F4A7C15ull + 1)
{
    m_dataLines = std::max<std::uint64_t>(1, (spec.workingSet / 64 + sampling - 1) / sampling);
    m_codeLines = std::max<std::uint64_t>(1, (spec.codeSize / 64 + sampling - 1) / sampling);
    if (spec.pattern == Pattern::Chase) {
        // Sattolo's algorithm: a single cycle through every sampled line, so the chase visits all of them.
        std::uint64_t n = std::min<std::uint64_t>(m_dataLines, 1u << 24);
        m_dataLines = n;
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        for (std::uint64_t i = n - 1; i > 0; --i) {
            std::uint64_t j = below(i);
            std::swap(order[i], order[j]);
        }
        m_next.assign(n, 0);
        for (std::uint64_t i = 0; i < n; ++i)
            m_next[order[i]] = order[(i + 1) % n];
    }
}

} // namespace rdt::sim

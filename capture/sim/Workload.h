// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace rdt::sim {

enum class Pattern : std::uint8_t {
    Idle, ///< no memory accesses (a sleeping thread)
    Stream, ///< sequential scan over the working set, wrapping (a streaming copy/scan)
    Random, ///< uniformly random lines of the working set (a hash table, a cache-sensitive service)
    Chase, ///< pointer chase over a random cyclic permutation: one dependent miss at a time
    Mix, ///< code + data: instruction fetches walking a code region, data accesses random over the working set
};
const char* patternName(Pattern p);
Result<Pattern> parsePattern(const std::string& name);

enum class AccessKind : std::uint8_t { Load, Store, Code };

/// What a simulated thread does. Sizes in bytes; rates in cache lines touched per second.
struct WorkloadSpec {
    Pattern pattern = Pattern::Random;
    std::uint64_t workingSet = 8ull << 20;
    std::uint64_t codeSize = 512ull << 10; ///< Mix: size of the code footprint
    double codeFraction = 0.3; ///< Mix: share of accesses that are instruction fetches
    double writeFraction = 0.0; ///< share of data accesses that are stores (they dirty lines: writebacks)
    double computeCycles = 10; ///< core cycles of non-memory work per cache line touched
    double rate = 0; ///< cap on lines touched per second; 0 = as fast as the core and memory allow
    int memoryNode = -1; ///< NUMA node the buffer lives on; -1 = the node of the thread's socket
    double mlp = 0; ///< memory-level parallelism; 0 = the pattern's default (stream 20, random 6, chase 1, mix 4)

    double effectiveMlp() const;
};

/// Parses "key=value" settings onto a spec: pattern ws code code_fraction write compute rate node mlp.
/// Sizes take K/M/G (binary) suffixes and optional "iB"/"B": 8M, 512KiB, 1G.
Status applyWorkloadSetting(WorkloadSpec& spec, const std::string& key, const std::string& value);
Result<std::uint64_t> parseSize(const std::string& text);
/// The largest size parseSize accepts (1 PiB): bigger values are refused, never wrapped.
inline constexpr std::uint64_t kMaxSizeBytes = 1ull << 50;

/// Generates the sampled line addresses of one thread (only lines whose index is a multiple of the sampling
/// factor S; see CacheSlice.h). Deterministic for a given seed.
class AddressGenerator {
public:
    AddressGenerator(const WorkloadSpec& spec, std::uint64_t regionBase, std::uint32_t sampling, std::uint64_t seed);
    /// Next access: byte address (line aligned) and kind.
    void next(std::uint64_t& address, AccessKind& kind);
    const WorkloadSpec& spec() const { return m_spec; }

private:
    std::uint64_t lineAddress(std::uint64_t base, std::uint64_t k) const { return base + k * m_stride; }
    /// wyrand: a small fast generator (the model needs speed and determinism, not cryptographic quality).
    std::uint64_t rand64()
    {
        m_state += 0xA0761D6478BD642Full;
        __extension__ using U128 = unsigned __int128;
        U128 m = static_cast<U128>(m_state) * (m_state ^ 0xE7037ED1A0B428DBull);
        return static_cast<std::uint64_t>(m >> 64) ^ static_cast<std::uint64_t>(m);
    }
    /// Uniform in [0, n) without a division (Lemire's multiply-shift).
    std::uint64_t below(std::uint64_t n)
    {
        __extension__ using U128 = unsigned __int128;
        return static_cast<std::uint64_t>((static_cast<U128>(rand64()) * n) >> 64);
    }
    /// A probability as an integer threshold on the top 53 bits of one draw: chance(p) is true when
    /// double(r >> 11) * 2^-53 < p, which (both sides scaled by 2^53, exactly) is r >> 11 < ceil(p * 2^53).
    /// p <= 0 (kNever) and p >= 1 (kAlways) decide without a draw. Same draws and outcomes as the double compare,
    /// without an int-to-double conversion on every access.
    static constexpr std::uint64_t kNever = 0, kAlways = ~std::uint64_t { 0 };
    static std::uint64_t threshold(double p)
    {
        if (!(p > 0)) return kNever;
        if (p >= 1) return kAlways;
        return static_cast<std::uint64_t>(std::ceil(p * 0x1.0p53));
    }
    bool chance(std::uint64_t threshold)
    {
        if (threshold == kNever) return false;
        return threshold == kAlways || (rand64() >> 11) < threshold;
    }

    WorkloadSpec m_spec;
    std::uint64_t m_dataBase, m_codeBase, m_stride;
    std::uint64_t m_dataLines, m_codeLines; ///< sampled lines in each region (>= 1)
    std::uint64_t m_codeChance, m_writeChance, m_branchChance; ///< threshold() of codeFraction, writeFraction, 1/16
    std::uint64_t m_pos = 0, m_codePos = 0;
    std::vector<std::uint32_t> m_next; ///< Chase: successor of each sampled line
    std::uint64_t m_state;
};

// Inline: it runs once per simulated access, in SimMachine's per-access loop.
inline void AddressGenerator::next(std::uint64_t& address, AccessKind& kind)
{
    switch (m_spec.pattern) {
    case Pattern::Idle:
    case Pattern::Stream:
        address = lineAddress(m_dataBase, m_pos);
        m_pos = m_pos + 1 == m_dataLines ? 0 : m_pos + 1;
        break;
    case Pattern::Random:
        address = lineAddress(m_dataBase, below(m_dataLines));
        break;
    case Pattern::Chase:
        m_pos = m_next[m_pos];
        address = lineAddress(m_dataBase, m_pos);
        break;
    case Pattern::Mix:
        if (chance(m_codeChance)) {
            // Instruction fetch: mostly sequential, with a taken branch to a random place now and then.
            if (chance(m_branchChance))
                m_codePos = below(m_codeLines);
            else
                m_codePos = m_codePos + 1 == m_codeLines ? 0 : m_codePos + 1;
            address = lineAddress(m_codeBase, m_codePos);
            kind = AccessKind::Code;
            return;
        }
        address = lineAddress(m_dataBase, below(m_dataLines));
        break;
    }
    kind = chance(m_writeChance) ? AccessKind::Store : AccessKind::Load;
}

} // namespace rdt::sim

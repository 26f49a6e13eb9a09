// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rdt::sim {

__extension__ using Uint128 = unsigned __int128;

/// A set-associative cache with true LRU replacement, tagged per line with RMID and CLOS, that simulates a
/// sample of the real cache's sets.
///
/// Set sampling: with factor S only lines whose line index is a multiple of S are simulated (the workload
/// generators emit only such lines; access() estimates the others). In a modulo-indexed cache with R sets
/// (R a multiple of S) those lines are exactly the lines of the sets whose index is a multiple of S, so the
/// slice holds R/S real sets with all their ways and behaves exactly like those sets; every simulated access
/// stands for S real accesses and every resident line for S real lines. The error is purely statistical: how far
/// the sampled sets differ from the average set. For the workloads here (addresses spread over many sets) it is
/// a few percent at S=64; tests/sim measures it (SetSampling.ErrorIsSmall) and the benchmark prints it.
/// When R < S (an L1 with 64 sets and S=128) one set is kept and its ways are scaled by R/S, an approximation.
/// Real L3s hash addresses over slices; the model indexes by line modulo the set count.
class CacheSlice {
public:
    /// Tags are 32-bit: the slice key folded (key ^ key >> 32), which halves the model's memory traffic. Keys of
    /// the workload generators fit in 32 bits; arbitrary 64-bit addresses from access() may alias (rarely).
    using Tag = std::uint32_t;
    static constexpr Tag kInvalid = ~Tag { 0 };
    static Tag tagOf(std::uint64_t key)
    {
        auto t = static_cast<Tag>(key ^ (key >> 32));
        return t == kInvalid ? kInvalid - 1 : t;
    }
    enum Flags : std::uint8_t { Dirty = 1, Code = 2, Remote = 4 };
    struct Meta {
        std::uint16_t rmid = 0;
        std::uint8_t clos = 0;
        std::uint8_t flags = 0;
    };
    struct Victim {
        bool valid = false;
        Tag key = kInvalid;
        Meta meta;
    };

    void configure(std::uint32_t realSets, std::uint32_t realWays, std::uint32_t sampling)
    {
        m_sets = realSets >= sampling ? realSets / sampling : 1;
        m_ways = realWays;
        if (realSets < sampling) {
            double w = double(realWays) * realSets / sampling;
            m_ways = w < 1 ? 1 : static_cast<std::uint32_t>(w + 0.5);
        }
        if (m_ways > 32) m_ways = 32;
        // Each set's row is padded to a multiple of 4 ways with invalid tags, so a tag lookup compares 4 ways per
        // SSE2 instruction; padding ways are never filled (fill() only visits the real ways) and never match.
        m_stride = (m_ways + 3) & ~3u;
        m_fastMod = ~std::uint64_t { 0 } / m_sets + 1;
        m_tags.assign(std::size_t { m_sets } * m_stride, kInvalid);
        m_lru.assign(m_tags.size(), 0);
        m_meta.assign(m_tags.size(), Meta {});
        m_clock = 0;
    }

    std::uint32_t sets() const { return m_sets; }
    std::uint32_t ways() const { return m_ways; }
    std::uint32_t allWays() const { return m_ways >= 32 ? 0xFFFFFFFFu : ((1u << m_ways) - 1); }

    /// Set of a tag. Lemire's fast modulo (no division).
    std::uint32_t setOf(Tag k) const
    {
        std::uint64_t low = m_fastMod * k;
        return static_cast<std::uint32_t>((static_cast<Uint128>(low) * m_sets) >> 64);
    }

    /// Index of the line holding key, or -1. A hit refreshes its LRU age.
    int find(Tag key)
    {
        std::size_t base = std::size_t { setOf(key) } * m_stride;
        int w = matchWay(m_tags.data() + base, key);
        if (w < 0) return -1;
        m_lru[base + static_cast<std::size_t>(w)] = tick();
        return static_cast<int>(base) + w;
    }

    /// Index of the line holding key without touching LRU, or -1.
    int peek(Tag key) const
    {
        std::size_t base = std::size_t { setOf(key) } * m_stride;
        int w = matchWay(m_tags.data() + base, key);
        return w < 0 ? -1 : static_cast<int>(base) + w;
    }

    /// Fills key into a way of allowedWays (CAT: a fill may only victimize ways its mask allows, SDM 20.19.2):
    /// an invalid allowed way if there is one, else the least recently used allowed way.
    int fill(Tag key, std::uint32_t allowedWays, Meta meta, Victim& victim)
    {
        std::uint32_t mask = allowedWays & allWays();
        if (mask == 0) mask = allWays();
        std::size_t base = std::size_t { setOf(key) } * m_stride;
        int best = -1;
        std::uint32_t bestAge = 0xFFFFFFFFu;
        for (std::uint32_t w = 0; w < m_ways; ++w) {
            if (!(mask & (1u << w))) continue;
            std::size_t i = base + w;
            if (m_tags[i] == kInvalid) {
                best = static_cast<int>(i);
                break;
            }
            if (m_lru[i] < bestAge) {
                bestAge = m_lru[i];
                best = static_cast<int>(i);
            }
        }
        auto i = static_cast<std::size_t>(best);
        victim.valid = m_tags[i] != kInvalid;
        victim.key = m_tags[i];
        victim.meta = m_meta[i];
        m_tags[i] = key;
        m_meta[i] = meta;
        m_lru[i] = tick();
        return best;
    }

    /// Drops a line (used for back-invalidation-free flushes); returns what was there.
    Victim invalidate(std::size_t index)
    {
        Victim v { m_tags[index] != kInvalid, m_tags[index], m_meta[index] };
        m_tags[index] = kInvalid;
        m_meta[index] = Meta {};
        return v;
    }

    Meta& meta(std::size_t index) { return m_meta[index]; }
    Tag key(std::size_t index) const { return m_tags[index]; }
    /// Way of a line index; lineCount() includes the padding ways, whose key() is always kInvalid.
    std::uint32_t wayOf(std::size_t index) const { return static_cast<std::uint32_t>(index % m_stride); }
    std::size_t lineCount() const { return m_tags.size(); }

private:
    /// Lowest way of the padded row t holding key, or -1 (a key is in at most one way: fills follow a miss).
    int matchWay(const Tag* t, Tag key) const
    {
#if defined(__SSE2__)
        const __m128i k = _mm_set1_epi32(static_cast<int>(key));
        for (std::uint32_t w = 0; w < m_stride; w += 4) {
            const __m128i row = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + w));
            const int bits = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(row, k)));
            if (bits != 0) return static_cast<int>(w) + std::countr_zero(static_cast<unsigned>(bits));
        }
        return -1;
#else
        for (std::uint32_t w = 0; w < m_ways; ++w)
            if (t[w] == key) return static_cast<int>(w);
        return -1;
#endif
    }

    std::uint32_t tick()
    {
        if (++m_clock == 0) { // LRU clock wrapped (after 2^32 accesses): restart ages, a one-off perturbation
            for (auto& a : m_lru)
                a = 0;
            m_clock = 1;
        }
        return m_clock;
    }

    std::uint32_t m_sets = 1, m_ways = 1, m_stride = 4;
    std::uint64_t m_fastMod = 0;
    std::uint32_t m_clock = 0;
    std::vector<Tag> m_tags;
    std::vector<std::uint32_t> m_lru;
    std::vector<Meta> m_meta;
};

} // namespace rdt::sim

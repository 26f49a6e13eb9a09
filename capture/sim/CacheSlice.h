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

namespace detail {
/// prefixMasks.m[n]: 0xFF in the first n bytes, 0 in the rest (one load instead of a broadcast and a compare).
struct PrefixMasks {
    alignas(16) std::uint8_t m[33][32];
};
inline constexpr PrefixMasks prefixMasks = [] {
    PrefixMasks t {};
    for (int n = 0; n <= 32; ++n)
        for (int j = 0; j < n; ++j)
            t.m[n][j] = 0xFF;
    return t;
}();
} // namespace detail

/// A set-associative cache with true LRU replacement (an exact recency order per set), tagged per line with RMID and
/// CLOS, that simulates a sample of the real cache's sets.
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
        if (m_ways < 1) m_ways = 1;
        m_allWays = m_ways >= 32 ? 0xFFFFFFFFu : ((1u << m_ways) - 1);
        // Each set's row is padded to a multiple of 4 ways with invalid tags; padding ways are never filled (fill()
        // only picks real ways) and never match. A lookup compares 16 ways at once (matchWay), so the array has
        // 12 more invalid tags at its end for the last row's reads.
        m_stride = (m_ways + 3) & ~3u;
        m_orderStride = m_ways <= 16 ? 16 : 32;
        m_fastMod = ~std::uint64_t { 0 } / m_sets + 1;
        m_lines = std::size_t { m_sets } * m_stride;
        m_tags.assign(m_lines + 12, kInvalid);
        m_meta.assign(m_lines, Meta {});
        m_invalid.assign(m_sets, m_allWays);
        // Any initial order will do: every way starts invalid, and invalid ways are chosen by index, not by order.
        // Padding bytes hold 0xFF (never a way) and never move: moves only touch positions up to the moved way's.
        m_order.assign(std::size_t { m_sets } * m_orderStride, 0xFF);
        for (std::uint32_t set = 0; set < m_sets; ++set)
            for (std::uint32_t w = 0; w < m_ways; ++w)
                m_order[std::size_t { set } * m_orderStride + w] = static_cast<std::uint8_t>(w);
    }

    std::uint32_t sets() const { return m_sets; }
    std::uint32_t ways() const { return m_ways; }
    std::uint32_t allWays() const { return m_allWays; }

    /// Set of a tag. Lemire's fast modulo (no division).
    std::uint32_t setOf(Tag k) const
    {
        std::uint64_t low = m_fastMod * k;
        return static_cast<std::uint32_t>((static_cast<Uint128>(low) * m_sets) >> 64);
    }

    /// Index of the line holding key, or -1. A hit makes the line the set's most recently used.
    int find(Tag key)
    {
        const std::uint32_t set = setOf(key);
        const int w = matchWay(m_tags.data() + std::size_t { set } * m_stride, key);
        if (w < 0) return -1;
        return hit(set, static_cast<std::uint32_t>(w));
    }

    /// find(), and on a miss fill() (the victim is set only then): one set computation and one row lookup for
    /// the common access path. Returns the index of the line that hit, or -1 after a fill.
    /// Forced inline (with fillSet) into SimMachine's access path: GCC keeps them out of line otherwise, and
    /// inlining them cuts that path by a fifth of its instructions (victims stay in registers).
    [[gnu::always_inline]] int findOrFill(Tag key, std::uint32_t allowedWays, Meta meta, Victim& victim)
    {
        const std::uint32_t set = setOf(key);
        const int w = matchWay(m_tags.data() + std::size_t { set } * m_stride, key);
        if (w >= 0) return hit(set, static_cast<std::uint32_t>(w));
        fillSet(set, key, allowedWays, meta, victim);
        return -1;
    }

    /// Index of the line holding key without touching the recency order, or -1.
    int peek(Tag key) const
    {
        std::size_t base = std::size_t { setOf(key) } * m_stride;
        int w = matchWay(m_tags.data() + base, key);
        return w < 0 ? -1 : static_cast<int>(base) + w;
    }

    /// Fills key into a way of allowedWays (CAT: a fill may only victimize ways its mask allows, SDM 20.19.2):
    /// the lowest-index invalid allowed way if there is one, else the least recently used (hit or filled)
    /// allowed way. The recency order is exact: unlike the per-line 32-bit ages it replaced, it has no clock
    /// to wrap (the ages restarted from 0 after 2^32 accesses, a one-off perturbation that is gone).
    int fill(Tag key, std::uint32_t allowedWays, Meta meta, Victim& victim)
    {
        return fillSet(setOf(key), key, allowedWays, meta, victim);
    }

    /// Drops a line (used for back-invalidation-free flushes); returns what was there. The way keeps its place in
    /// the recency order: fill() takes invalid ways by index before it looks at the order.
    Victim invalidate(std::size_t index)
    {
        Victim v { m_tags[index] != kInvalid, m_tags[index], m_meta[index] };
        m_tags[index] = kInvalid;
        m_meta[index] = Meta {};
        const std::uint32_t way = wayOf(index);
        if (way < m_ways) m_invalid[index / m_stride] |= 1u << way;
        return v;
    }

    Meta& meta(std::size_t index) { return m_meta[index]; }
    Tag key(std::size_t index) const { return m_tags[index]; }
    /// Way of a line index; lineCount() includes the padding ways, whose key() is always kInvalid.
    std::uint32_t wayOf(std::size_t index) const { return static_cast<std::uint32_t>(index % m_stride); }
    std::size_t lineCount() const { return m_lines; }

private:
    /// A hit on way w of set: it becomes the set's most recently used. Returns the line index.
    int hit(std::uint32_t set, std::uint32_t w)
    {
        std::uint8_t* order = orderRow(set);
        moveToFront(order, positionOf(order, w), w);
        return static_cast<int>(std::size_t { set } * m_stride + w);
    }

    [[gnu::always_inline]] int fillSet(std::uint32_t set, Tag key, std::uint32_t allowedWays, Meta meta, Victim& victim)
    {
        const std::uint32_t all = m_allWays;
        std::uint32_t mask = allowedWays & all;
        if (mask == 0) mask = all;
        std::uint8_t* order = orderRow(set);
        std::uint32_t way, pos;
        if (const std::uint32_t empty = m_invalid[set] & mask; empty != 0) {
            way = static_cast<std::uint32_t>(std::countr_zero(empty));
            m_invalid[set] &= ~(1u << way);
            pos = positionOf(order, way);
        } else {
            // Every allowed way is valid: the allowed way latest in the MRU->LRU order.
            pos = m_ways - 1;
            way = order[pos];
            if (mask != all)
                while (!(mask & (1u << way)))
                    way = order[--pos];
        }
        moveToFront(order, pos, way);
        const std::size_t i = std::size_t { set } * m_stride + way;
        victim.valid = m_tags[i] != kInvalid;
        victim.key = m_tags[i];
        victim.meta = m_meta[i];
        m_tags[i] = key;
        m_meta[i] = meta;
        return static_cast<int>(i);
    }

    /// Lowest way of the padded row t holding key, or -1 (a key is in at most one way: fills follow a miss).
    /// SSE2 compares 16 ways with one branch: four 4-way compares packed into a 16-bit mask. Reads past the row
    /// (into the next row, or the 12 invalid tags at the array's end) are masked off: a key is only ever filled
    /// into its own set, so the next row cannot hold it anyway.
    int matchWay(const Tag* t, Tag key) const
    {
#if defined(__SSE2__)
        const __m128i k = _mm_set1_epi32(static_cast<int>(key));
        auto load = [&](std::uint32_t w) {
            return _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + w)), k);
        };
        auto group = [&](std::uint32_t w) {
            const __m128i lo = _mm_packs_epi32(load(w), load(w + 4)), hi = _mm_packs_epi32(load(w + 8), load(w + 12));
            return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(lo, hi)));
        };
        std::uint32_t bits = group(0);
        if (m_stride > 16) bits |= group(16) << 16;
        bits &= m_allWays;
        return bits != 0 ? std::countr_zero(bits) : -1;
#else
        for (std::uint32_t w = 0; w < m_ways; ++w)
            if (t[w] == key) return static_cast<int>(w);
        return -1;
#endif
    }

    std::uint8_t* orderRow(std::uint32_t set)
    {
        return m_order.data() + std::size_t { set } * m_orderStride;
    }

    /// Position of way in a set's recency order (each way is there exactly once; padding bytes are 0xFF).
    std::uint32_t positionOf(const std::uint8_t* order, std::uint32_t way) const
    {
#if defined(__SSE2__)
        const __m128i w = _mm_set1_epi32(static_cast<int>(way * 0x01010101u));
        auto bits = static_cast<std::uint32_t>(
            _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(order)), w)));
        if (m_orderStride > 16)
            bits |= static_cast<std::uint32_t>(_mm_movemask_epi8(
                        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(order + 16)), w)))
                << 16;
        return static_cast<std::uint32_t>(std::countr_zero(bits));
#else
        std::uint32_t p = 0;
        while (order[p] != way)
            ++p;
        return p;
#endif
    }

    /// Moves way from position pos to position 0 (most recently used): positions 0..pos-1 shift up by one.
    /// The order is kept MRU first so the shift is a byte shift left and way lands in byte 0.
    void moveToFront(std::uint8_t* order, std::uint32_t pos, std::uint32_t way) const
    {
#if defined(__SSE2__)
        const std::uint8_t* prefix = detail::prefixMasks.m[pos + 1];
        const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(order));
        // Positions 0..pos take their left neighbour.
        const __m128i moveLo = _mm_load_si128(reinterpret_cast<const __m128i*>(prefix));
        __m128i outLo = _mm_or_si128(_mm_and_si128(moveLo, _mm_slli_si128(lo, 1)), _mm_andnot_si128(moveLo, lo));
        outLo = _mm_or_si128(outLo, _mm_cvtsi32_si128(static_cast<int>(way))); // byte 0 was shifted-in zero
        _mm_storeu_si128(reinterpret_cast<__m128i*>(order), outLo);
        if (pos >= 16) { // only when there are more than 16 ways
            const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(order + 16));
            const __m128i moveHi = _mm_load_si128(reinterpret_cast<const __m128i*>(prefix + 16));
            const __m128i shiftedHi = _mm_or_si128(_mm_slli_si128(hi, 1), _mm_srli_si128(lo, 15));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(order + 16),
                _mm_or_si128(_mm_and_si128(moveHi, shiftedHi), _mm_andnot_si128(moveHi, hi)));
        }
#else
        for (std::uint32_t p = pos; p > 0; --p)
            order[p] = order[p - 1];
        order[0] = static_cast<std::uint8_t>(way);
#endif
    }

    std::uint32_t m_sets = 1, m_ways = 1, m_stride = 4, m_orderStride = 16, m_allWays = 1;
    std::uint64_t m_fastMod = 0;
    std::size_t m_lines = 0; ///< sets x stride (m_tags has 12 more for matchWay's reads)
    std::vector<Tag> m_tags;
    std::vector<Meta> m_meta;
    /// Per set: bit w set when way w holds no line.
    std::vector<std::uint32_t> m_invalid;
    /// Per set, m_orderStride bytes: the ways from most to least recently used (hit or filled).
    std::vector<std::uint8_t> m_order;
};

} // namespace rdt::sim

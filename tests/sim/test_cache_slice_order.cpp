// SPDX-License-Identifier: GPL-3.0-or-later
// CacheSlice against a straightforward reference: per-line LRU ages and a linear victim search (the algorithm the
// slice used before it kept a recency order per set). Long pseudo-random sequences of find/peek/fill (with varied
// CAT masks)/invalidate must give the same line index, the same victim and the same metadata at every step, for
// several geometries (ways 1..32, padded and unpadded rows, one set and many).
#include "sim/CacheSlice.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using rdt::sim::CacheSlice;

namespace {

/// The old model: a global clock stamps every hit and fill; the victim is the lowest-index invalid allowed way,
/// else the allowed way with the smallest stamp. Line indices are laid out as CacheSlice lays them out (rows of
/// `stride` lines), so indices compare directly.
class ReferenceLru {
public:
    /// Set indexing is taken from the slice under test (SetOfIsTheModulo checks it).
    ReferenceLru(const CacheSlice& geometry, std::uint32_t stride)
        : m_geometry(geometry)
        , m_ways(geometry.ways())
        , m_stride(stride)
        , m_tags(std::size_t { geometry.sets() } * stride, CacheSlice::kInvalid)
        , m_age(m_tags.size(), 0)
        , m_meta(m_tags.size())
    { }

    std::uint32_t allWays() const { return m_ways >= 32 ? 0xFFFFFFFFu : (1u << m_ways) - 1; }

    int find(CacheSlice::Tag key, bool touch)
    {
        std::size_t base = std::size_t { m_geometry.setOf(key) } * m_stride;
        for (std::uint32_t w = 0; w < m_ways; ++w)
            if (m_tags[base + w] == key) {
                if (touch) m_age[base + w] = ++m_clock;
                return static_cast<int>(base + w);
            }
        return -1;
    }

    int fill(CacheSlice::Tag key, std::uint32_t allowed, CacheSlice::Meta meta, CacheSlice::Victim& victim)
    {
        std::uint32_t mask = allowed & allWays();
        if (mask == 0) mask = allWays();
        std::size_t base = std::size_t { m_geometry.setOf(key) } * m_stride;
        std::size_t best = SIZE_MAX;
        std::uint64_t bestAge = UINT64_MAX;
        for (std::uint32_t w = 0; w < m_ways; ++w) {
            if (!(mask & (1u << w))) continue;
            std::size_t i = base + w;
            if (m_tags[i] == CacheSlice::kInvalid) {
                best = i;
                break;
            }
            if (m_age[i] < bestAge) {
                bestAge = m_age[i];
                best = i;
            }
        }
        victim.valid = m_tags[best] != CacheSlice::kInvalid;
        victim.key = m_tags[best];
        victim.meta = m_meta[best];
        m_tags[best] = key;
        m_meta[best] = meta;
        m_age[best] = ++m_clock;
        return static_cast<int>(best);
    }

    CacheSlice::Victim invalidate(std::size_t i)
    {
        CacheSlice::Victim v { m_tags[i] != CacheSlice::kInvalid, m_tags[i], m_meta[i] };
        m_tags[i] = CacheSlice::kInvalid;
        m_meta[i] = {};
        return v;
    }

    CacheSlice::Meta& meta(std::size_t i) { return m_meta[i]; }
    CacheSlice::Tag key(std::size_t i) const { return m_tags[i]; }

private:
    const CacheSlice& m_geometry;
    std::uint32_t m_ways, m_stride;
    std::uint64_t m_clock = 0;
    std::vector<CacheSlice::Tag> m_tags;
    std::vector<std::uint64_t> m_age;
    std::vector<CacheSlice::Meta> m_meta;
};

struct Rng {
    std::uint64_t s;
    std::uint64_t next()
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
};

bool sameMeta(const CacheSlice::Meta& a, const CacheSlice::Meta& b)
{
    return a.rmid == b.rmid && a.clos == b.clos && a.flags == b.flags;
}

/// Drives both models with `steps` random operations; counts the victims that were valid lines in `evictions`
/// (so the caller can check the sequence really exercised replacement, not only empty ways).
void compare(std::uint32_t realSets, std::uint32_t realWays, std::uint32_t sampling, std::uint64_t seed, int steps,
    std::uint32_t keySpan, std::uint64_t& evictions)
{
    CacheSlice slice;
    slice.configure(realSets, realWays, sampling);
    const std::uint32_t ways = slice.ways(), sets = slice.sets();
    const std::uint32_t stride = static_cast<std::uint32_t>(slice.lineCount() / sets);
    ReferenceLru ref(slice, stride);
    // CAT-like masks: contiguous runs, single ways, sparse masks, bits beyond the ways, and 0 (= all ways).
    std::vector<std::uint32_t> masks { 0u, slice.allWays(), 1u, 0x3u, 0xF0u, 0x555u, 0xFFFF0000u, 0x80000001u };
    for (int i = 0; i < 8; ++i) {
        std::uint32_t len = 1 + static_cast<std::uint32_t>(seed + static_cast<std::uint64_t>(i) * 7) % ways;
        std::uint32_t lo = static_cast<std::uint32_t>(i) % ways;
        std::uint32_t run = len >= 32 ? 0xFFFFFFFFu : (1u << len) - 1;
        masks.push_back(run << lo);
    }
    Rng rng { seed * 0x9E3779B97F4A7C15ull + 1 };
    evictions = 0;
    for (int step = 0; step < steps; ++step) {
        const CacheSlice::Tag key = rng.below(keySpan) * 3 + 1;
        const std::uint32_t op = rng.below(100);
        SCOPED_TRACE(::testing::Message() << "geometry " << realSets << "x" << realWays << "/" << sampling << " seed "
                                          << seed << " step " << step << " op " << op << " key " << key);
        if (op < 45) {
            // An access: find, and on a miss a fill with one of the masks; every other access goes through
            // findOrFill (what SimMachine does), the others through find then fill.
            const std::uint32_t mask = masks[rng.below(static_cast<std::uint32_t>(masks.size()))];
            const CacheSlice::Meta meta { static_cast<std::uint16_t>(rng.below(300)),
                static_cast<std::uint8_t>(rng.below(16)), static_cast<std::uint8_t>(rng.below(8)) };
            CacheSlice::Victim va, vb;
            const int b = ref.find(key, true);
            if (step % 2 == 0) {
                const int a = slice.findOrFill(key, mask, meta, va);
                if (b >= 0) {
                    ASSERT_EQ(a, b);
                    continue;
                }
                ASSERT_EQ(a, -1);
                const int filled = ref.fill(key, mask, meta, vb);
                ASSERT_EQ(slice.peek(key), filled);
            } else {
                ASSERT_EQ(slice.find(key), b);
                if (b >= 0) continue;
                ASSERT_EQ(slice.fill(key, mask, meta, va), ref.fill(key, mask, meta, vb));
            }
            ASSERT_EQ(va.valid, vb.valid);
            ASSERT_EQ(va.key, vb.key);
            ASSERT_TRUE(sameMeta(va.meta, vb.meta));
            evictions += va.valid;
        } else if (op < 60) {
            ASSERT_EQ(slice.peek(key), ref.find(key, false));
        } else if (op < 70) {
            // Metadata updates through meta() (writebacks mark lines dirty).
            const int a = slice.peek(key);
            ASSERT_EQ(a, ref.find(key, false));
            if (a >= 0) {
                slice.meta(static_cast<std::size_t>(a)).flags |= CacheSlice::Dirty;
                ref.meta(static_cast<std::size_t>(a)).flags |= CacheSlice::Dirty;
            }
        } else if (op < 75) {
            // Invalidate a random line (valid, invalid or padding) and check what came out.
            const std::size_t i = rng.below(static_cast<std::uint32_t>(slice.lineCount()));
            const CacheSlice::Victim va = slice.invalidate(i), vb = ref.invalidate(i);
            ASSERT_EQ(va.valid, vb.valid);
            ASSERT_EQ(va.key, vb.key);
            ASSERT_TRUE(sameMeta(va.meta, vb.meta));
        } else {
            // A fill without a preceding find (the key may be absent or already present: the slice does not
            // check, and neither does the reference).
            if (slice.peek(key) >= 0) continue;
            const std::uint32_t mask = masks[rng.below(static_cast<std::uint32_t>(masks.size()))];
            CacheSlice::Victim va, vb;
            ASSERT_EQ(slice.fill(key, mask, {}, va), ref.fill(key, mask, {}, vb));
            ASSERT_EQ(va.valid, vb.valid);
            ASSERT_EQ(va.key, vb.key);
            evictions += va.valid;
        }
    }
    // The whole state agrees at the end, line by line (tags, metadata, way of each line).
    for (std::size_t i = 0; i < slice.lineCount(); ++i) {
        EXPECT_EQ(slice.key(i), ref.key(i)) << i;
        EXPECT_TRUE(sameMeta(slice.meta(i), ref.meta(i))) << i;
        EXPECT_EQ(slice.wayOf(i), i % stride) << i;
    }
}

} // namespace

TEST(CacheSliceOrder, MatchesReferenceLruForManyGeometries)
{
    struct Geometry {
        std::uint32_t sets, ways, sampling;
    };
    // (real sets, real ways, sampling): the skx L3 (11 ways), L2 (16), L1 (8, one set scaled), and the widths
    // CPUID may report up to the model's limit of 32 ways.
    const Geometry geometries[]
        = { { 36864, 11, 64 }, { 1024, 16, 64 }, { 64, 8, 64 }, { 64, 8, 128 }, { 256, 1, 16 }, { 128, 4, 16 },
              { 512, 12, 64 }, { 512, 15, 32 }, { 512, 20, 64 }, { 512, 32, 64 }, { 512, 17, 64 }, { 64, 40, 16 } };
    for (const Geometry& g : geometries)
        for (std::uint64_t seed : { 1u, 2u, 3u }) {
            CacheSlice probe;
            probe.configure(g.sets, g.ways, g.sampling);
            // About three keys per line: enough reuse for hits, enough pressure for evictions.
            const std::uint32_t span = static_cast<std::uint32_t>(probe.sets() * probe.ways() * 3);
            std::uint64_t evictions = 0;
            compare(g.sets, g.ways, g.sampling, seed, 60000, span, evictions);
            if (::testing::Test::HasFatalFailure()) return;
            EXPECT_GT(evictions, 1000u) << g.sets << "x" << g.ways;
        }
}

TEST(CacheSliceOrder, ReconfigureStartsEmpty)
{
    CacheSlice s;
    s.configure(1024, 16, 64);
    CacheSlice::Victim v;
    for (CacheSlice::Tag k = 0; k < 1000; ++k)
        s.fill(k, 0, {}, v);
    s.configure(1024, 16, 64);
    for (std::size_t i = 0; i < s.lineCount(); ++i)
        EXPECT_EQ(s.key(i), CacheSlice::kInvalid);
    // An empty set fills its ways in index order.
    for (std::uint32_t w = 0; w < s.ways(); ++w) {
        const int i = s.fill(static_cast<CacheSlice::Tag>(w) * s.sets(), 0, {}, v);
        EXPECT_FALSE(v.valid);
        EXPECT_EQ(s.wayOf(static_cast<std::size_t>(i)), w);
    }
}

TEST(CacheSliceOrder, SetOfIsTheModulo)
{
    Rng rng { 12345 };
    for (std::uint32_t realSets : { 36864u, 1024u, 64u, 1000u, 12288u * 64 }) {
        CacheSlice s;
        s.configure(realSets, 11, 64);
        for (int i = 0; i < 20000; ++i) {
            const auto k = static_cast<CacheSlice::Tag>(rng.next());
            ASSERT_EQ(s.setOf(k), k % s.sets()) << k;
        }
        ASSERT_EQ(s.setOf(CacheSlice::kInvalid - 1), (CacheSlice::kInvalid - 1) % s.sets());
    }
}

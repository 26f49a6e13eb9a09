// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rdt {

/// A hash map for hot counting loops (millions of look-ups of a few thousand keys): open addressing with linear
/// probing in one array, so a look-up touches one or two cache lines where std::unordered_map chases a node
/// pointer per bucket. Keys are never erased (counters only grow); the table doubles at half full. `Hash` gives a
/// 64-bit hash; Fibonacci hashing (the hash times 2^64 / golden ratio, top bits) spreads weak low bits.
/// Iteration order is the slot order: deterministic for the same insertions, not sorted.
template <typename Key, typename Value, typename Hash> class FlatHashMap {
    struct Slot {
        Key key {};
        Value value {};
        bool used = false;
    };

public:
    /// The value of `key`, value-initialised when new.
    Value& operator[](const Key& key)
    {
        reserveMore(1);
        return inserter()[key];
    }

    /// Room for `more` keys beyond size() without growing: the next `more` insertions through an Inserter need no
    /// check (hot loops hoist it out).
    void reserveMore(std::size_t more)
    {
        while ((m_size + more) * 2 > m_capacity)
            grow();
    }

    /// operator[] for a hot loop, after reserveMore(n) and for at most n new keys: it keeps the table's address
    /// and shape in registers, where the map's own members would be read again after every store to a value of
    /// the same type (the compiler must assume a counter might alias them). Invalid once the map grows.
    class Inserter {
    public:
        Value& operator[](const Key& key)
        {
            for (std::size_t i = static_cast<std::size_t>(
                     (static_cast<std::uint64_t>(Hash {}(key)) * 0x9e3779b97f4a7c15ull) >> m_shift);
                 ; i = (i + 1) & m_mask) {
                Slot& s = m_slots[i];
                if (s.used && s.key == key) return s.value;
                if (!s.used) {
                    s.used = true;
                    s.key = key;
                    s.value = Value {};
                    ++*m_size;
                    return s.value;
                }
            }
        }

    private:
        friend class FlatHashMap;
        explicit Inserter(FlatHashMap& map)
            : m_slots(map.m_slots.data())
            , m_mask(map.m_capacity - 1)
            , m_shift(map.m_shift)
            , m_size(&map.m_size)
        { }
        Slot* m_slots;
        std::size_t m_mask;
        unsigned m_shift;
        std::size_t* m_size;
    };
    Inserter inserter() { return Inserter(*this); }

    /// The value of `key`, or nullptr when absent.
    const Value* find(const Key& key) const
    {
        if (m_slots.empty()) return nullptr;
        const Slot* s = probe(m_slots, key);
        return s->used ? &s->value : nullptr;
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    void clear()
    {
        m_slots.clear();
        m_slots.shrink_to_fit();
        m_size = 0;
        m_capacity = 0;
        m_shift = 64;
    }

    /// Calls f(key, value) for every entry, in slot order.
    template <typename F> void forEach(F&& f) const
    {
        for (const auto& s : m_slots)
            if (s.used) f(s.key, s.value);
    }

private:
    std::size_t home(const Key& key) const
    {
        return static_cast<std::size_t>((static_cast<std::uint64_t>(Hash {}(key)) * 0x9e3779b97f4a7c15ull) >> m_shift);
    }

    /// The slot holding `key`, or the free slot where it belongs (the table is never full).
    template <typename Slots> auto* probe(Slots& slots, const Key& key) const
    {
        const std::size_t mask = m_capacity - 1;
        for (std::size_t i = home(key);; i = (i + 1) & mask)
            if (!slots[i].used || slots[i].key == key) return &slots[i];
    }

    void grow()
    {
        m_capacity = m_capacity == 0 ? 16 : m_capacity * 2;
        std::vector<Slot> old = std::exchange(m_slots, std::vector<Slot>(m_capacity));
        m_shift = 64 - static_cast<unsigned>(std::countr_zero(m_capacity));
        for (auto& s : old)
            if (s.used) *probe(m_slots, s.key) = std::move(s);
    }

    std::vector<Slot> m_slots; ///< m_capacity of them, at most half used
    std::size_t m_size = 0;
    std::size_t m_capacity = 0; ///< a power of two (or 0), kept apart from m_slots.size() to spare a division
    unsigned m_shift = 64; ///< 64 - log2(capacity): home() keeps the hash product's top bits
};

} // namespace rdt

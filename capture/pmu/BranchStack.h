// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "BranchEntry.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <span>
#include <vector>

namespace rdt::pmu {

/// A sample's PERF_SAMPLE_BRANCH_STACK entries ([0] the most recent). The decoder makes it a view of the entries in
/// the record's own bytes, so decoding a sample copies none of them (a 32-entry LBR sample is 768 bytes); code that
/// builds samples gives it entries of its own. Entries are read by value (a 24-byte load at any alignment).
/// A copy or a move always owns its entries: a Sample kept past its record stays valid; only the decoder's own
/// Sample points into the record, like Sample::raw.
class BranchStack {
public:
    static constexpr std::size_t EntryBytes = sizeof(BranchEntry); // struct perf_branch_entry
    static_assert(EntryBytes == 24);

    BranchStack() = default;
    BranchStack(std::vector<BranchEntry> entries) // NOLINT(google-explicit-constructor): `s.branches = {...}`
        : m_owned(std::move(entries))
    {
        pointAtOwned();
    }
    BranchStack(std::initializer_list<BranchEntry> entries)
        : BranchStack(std::vector<BranchEntry>(entries))
    { }
    BranchStack(const BranchStack& other)
        : BranchStack(other.toVector())
    { }
    BranchStack(BranchStack&& other) noexcept
        : m_owned(other.owns() ? std::move(other.m_owned) : other.toVector())
    {
        pointAtOwned();
        other.clear();
    }
    BranchStack& operator=(const BranchStack& other)
    {
        if (this != &other) *this = BranchStack(other);
        return *this;
    }
    BranchStack& operator=(BranchStack&& other) noexcept
    {
        if (this == &other) return *this;
        m_owned = other.owns() ? std::move(other.m_owned) : other.toVector();
        pointAtOwned();
        other.clear();
        return *this;
    }
    ~BranchStack() = default;

    /// Views `bytes.size() / EntryBytes` entries in place (a record's BRANCH_STACK); valid while the bytes are.
    void view(std::span<const std::byte> bytes)
    {
        m_owned.clear();
        m_bytes = bytes.data();
        m_size = bytes.size() / EntryBytes;
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    BranchEntry operator[](std::size_t i) const
    {
        // Field by field: three 8-byte loads. One 24-byte memcpy into the entry would be a 16-byte and an 8-byte
        // store whose halves are then read back 8 bytes at a time, stalling store-to-load forwarding.
        const std::byte* p = m_bytes + i * EntryBytes;
        BranchEntry e;
        std::memcpy(&e.from, p, 8);
        std::memcpy(&e.to, p + 8, 8);
        std::memcpy(&e.flags, p + 16, 8);
        return e;
    }
    void push_back(const BranchEntry& e)
    {
        if (!owns()) m_owned = toVector();
        m_owned.push_back(e);
        pointAtOwned();
    }
    void clear()
    {
        m_owned.clear();
        pointAtOwned();
    }
    std::vector<BranchEntry> toVector() const { return std::vector<BranchEntry>(begin(), end()); }
    operator std::vector<BranchEntry>() const { return toVector(); } // NOLINT(google-explicit-constructor)

    class Iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = BranchEntry;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = BranchEntry;

        Iterator() = default;
        BranchEntry operator*() const { return (*m_stack)[m_index]; }
        BranchEntry operator[](difference_type n) const { return (*m_stack)[m_index + static_cast<std::size_t>(n)]; }
        Iterator& operator++()
        {
            ++m_index;
            return *this;
        }
        Iterator operator++(int)
        {
            Iterator old = *this;
            ++m_index;
            return old;
        }
        Iterator& operator--()
        {
            --m_index;
            return *this;
        }
        Iterator operator--(int)
        {
            Iterator old = *this;
            --m_index;
            return old;
        }
        Iterator& operator+=(difference_type n)
        {
            m_index += static_cast<std::size_t>(n);
            return *this;
        }
        Iterator& operator-=(difference_type n)
        {
            m_index -= static_cast<std::size_t>(n);
            return *this;
        }
        friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
        friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
        friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const Iterator& a, const Iterator& b)
        {
            return static_cast<difference_type>(a.m_index) - static_cast<difference_type>(b.m_index);
        }
        friend bool operator==(const Iterator& a, const Iterator& b) { return a.m_index == b.m_index; }
        friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.m_index <=> b.m_index; }

    private:
        friend class BranchStack;
        Iterator(const BranchStack* stack, std::size_t index)
            : m_stack(stack)
            , m_index(index)
        { }
        const BranchStack* m_stack = nullptr;
        std::size_t m_index = 0;
    };
    Iterator begin() const { return Iterator(this, 0); }
    Iterator end() const { return Iterator(this, m_size); }

private:
    bool owns() const { return m_bytes == reinterpret_cast<const std::byte*>(m_owned.data()); }
    void pointAtOwned()
    {
        m_bytes = reinterpret_cast<const std::byte*>(m_owned.data());
        m_size = m_owned.size();
    }

    std::vector<BranchEntry> m_owned; ///< the entries when it owns them
    const std::byte* m_bytes = nullptr; ///< the entries: the record's bytes (a view) or m_owned's
    std::size_t m_size = 0;
};

} // namespace rdt::pmu

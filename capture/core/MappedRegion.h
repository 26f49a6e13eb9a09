// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"

#include <cstddef>
#include <span>
#include <string>
#include <utility>

namespace rdt {

/// Move-only owner of an mmap()ed region.
class MappedRegion {
public:
    MappedRegion() = default;
    MappedRegion(void* addr, std::size_t size)
        : m_addr(addr)
        , m_size(size)
    { }
    MappedRegion(MappedRegion&& o) noexcept
        : m_addr(std::exchange(o.m_addr, nullptr))
        , m_size(std::exchange(o.m_size, 0))
    { }
    MappedRegion& operator=(MappedRegion&& o) noexcept;
    MappedRegion(const MappedRegion&) = delete;
    MappedRegion& operator=(const MappedRegion&) = delete;
    ~MappedRegion() { reset(); }

    /// Maps a whole file read-only (an empty file gives an empty, valid region).
    static Result<MappedRegion> mapFileReadOnly(const std::string& path);

    void* data() const { return m_addr; }
    std::size_t size() const { return m_size; }
    std::span<const std::byte> bytes() const { return { static_cast<const std::byte*>(m_addr), m_size }; }
    bool valid() const { return m_addr != nullptr; }
    void reset() noexcept;

private:
    void* m_addr = nullptr;
    std::size_t m_size = 0;
};

} // namespace rdt

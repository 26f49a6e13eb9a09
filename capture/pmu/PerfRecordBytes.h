// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Bounds-checked little-endian loads over record bytes (perf records are host-endian; we support the
// little-endian hosts perf runs on: x86-64, arm64). memcpy keeps unaligned reads defined.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace rdt::pmu {

template <typename T> inline T loadAt(const std::byte* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

/// A forward cursor that refuses to read past its span: every take* returns false instead.
class ByteCursor {
public:
    explicit ByteCursor(std::span<const std::byte> bytes)
        : m_p(bytes.data())
        , m_left(bytes.size())
    { }
    std::size_t left() const { return m_left; }
    const std::byte* position() const { return m_p; }

    bool u64(std::uint64_t& v) { return take(v); }
    bool u32(std::uint32_t& v) { return take(v); }
    bool u16(std::uint16_t& v) { return take(v); }
    bool u8(std::uint8_t& v) { return take(v); }
    bool bytes(std::size_t n, std::span<const std::byte>& out)
    {
        if (n > m_left) return false;
        out = { m_p, n };
        advance(n);
        return true;
    }
    bool skip(std::size_t n)
    {
        if (n > m_left) return false;
        advance(n);
        return true;
    }

private:
    template <typename T> bool take(T& v)
    {
        if (sizeof(T) > m_left) return false;
        std::memcpy(&v, m_p, sizeof(T));
        advance(sizeof(T));
        return true;
    }
    void advance(std::size_t n)
    {
        m_p += n;
        m_left -= n;
    }
    const std::byte* m_p;
    std::size_t m_left;
};

} // namespace rdt::pmu

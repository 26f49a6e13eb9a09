// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Builds byte-exact perf records by hand for the decoder and ring tables: every test states the layout it
// expects field by field, independently of the decoder's code.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace rdt::pmu::test {

class Bytes {
public:
    Bytes& u64(std::uint64_t v) { return put(v); }
    Bytes& u32(std::uint32_t v) { return put(v); }
    Bytes& u16(std::uint16_t v) { return put(v); }
    Bytes& u8(std::uint8_t v) { return put(v); }
    Bytes& str(const std::string& s, std::size_t padTo = 8)
    {
        for (char c : s)
            m_b.push_back(static_cast<std::byte>(c));
        m_b.push_back(std::byte { 0 });
        while (m_b.size() % padTo)
            m_b.push_back(std::byte { 0 });
        return *this;
    }
    Bytes& raw(const std::vector<std::byte>& b)
    {
        m_b.insert(m_b.end(), b.begin(), b.end());
        return *this;
    }
    Bytes& fill(std::size_t n, std::uint8_t v)
    {
        m_b.insert(m_b.end(), n, static_cast<std::byte>(v));
        return *this;
    }
    const std::vector<std::byte>& bytes() const { return m_b; }
    std::size_t size() const { return m_b.size(); }

    /// A record: perf_event_header {type, misc, size} followed by `body`.
    static std::vector<std::byte> record(std::uint32_t type, std::uint16_t misc, const Bytes& body)
    {
        Bytes r;
        r.u32(type).u16(misc).u16(static_cast<std::uint16_t>(8 + body.size())).raw(body.bytes());
        return r.bytes();
    }

private:
    template <typename T> Bytes& put(T v)
    {
        const auto at = m_b.size();
        m_b.resize(at + sizeof v);
        std::memcpy(m_b.data() + at, &v, sizeof v);
        return *this;
    }
    std::vector<std::byte> m_b;
};

} // namespace rdt::pmu::test

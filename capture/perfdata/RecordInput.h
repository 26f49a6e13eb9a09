// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ReadAhead.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace rdt::perfdata {

/// The bytes records are parsed from: a cursor with at least `n` contiguous bytes on request, over bytes in memory
/// or over the chunks of a ReadAhead. A record cut by a chunk's edge is made contiguous by copying its first part
/// (less than one record) into the room before the next chunk, so the records themselves are never copied.
class RecordInput {
public:
    explicit RecordInput(std::span<const std::byte> bytes);
    explicit RecordInput(std::unique_ptr<ReadAhead> source);

    /// At least n contiguous bytes at the cursor (n at most ReadAhead::Reserve); false at the end of the input.
    bool ensure(std::size_t n);
    const std::byte* data() const { return m_cur; }
    std::size_t available() const { return static_cast<std::size_t>(m_end - m_cur); }
    /// Moves the cursor n bytes on (n <= available()).
    void consume(std::size_t n) { m_cur += n; }
    /// Skips n bytes, across chunks; the bytes skipped (fewer only at the end of the input).
    std::uint64_t skip(std::uint64_t n);

private:
    std::unique_ptr<ReadAhead> m_source;
    const std::byte* m_cur = nullptr;
    const std::byte* m_end = nullptr;
    std::vector<std::byte> m_carry; ///< leftover bytes across a chunk edge; the window when it is the slow path
    bool m_exhausted = false;
};

} // namespace rdt::perfdata

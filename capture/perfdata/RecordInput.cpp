// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecordInput.h"

#include <algorithm>
#include <cstring>

namespace rdt::perfdata {

RecordInput::RecordInput(std::span<const std::byte> bytes)
    : m_cur(bytes.data())
    , m_end(bytes.data() + bytes.size())
    , m_exhausted(true)
{ }

RecordInput::RecordInput(std::unique_ptr<ReadAhead> source)
    : m_source(std::move(source))
{ }

bool RecordInput::ensure(std::size_t n)
{
    if (available() >= n) return true;
    if (m_exhausted) return false;
    // Keep the leftover before the source takes its chunk back (it may be refilled at once).
    if (!m_carry.empty() && m_cur >= m_carry.data() && m_cur <= m_carry.data() + m_carry.size())
        m_carry.erase(m_carry.begin(), m_carry.begin() + (m_cur - m_carry.data()));
    else
        m_carry.assign(m_cur, m_end);
    while (true) {
        const ReadAhead::Chunk chunk = m_source->next();
        if (chunk.size == 0) {
            m_exhausted = true;
            m_cur = m_carry.data();
            m_end = m_carry.data() + m_carry.size();
            return available() >= n;
        }
        const std::size_t left = m_carry.size();
        if (left <= ReadAhead::Reserve && left + chunk.size >= n) { // the usual case: the chunk's room takes it
            if (left) std::memcpy(chunk.data - left, m_carry.data(), left);
            m_carry.clear();
            m_cur = chunk.data - left;
            m_end = chunk.data + chunk.size;
            return true;
        }
        m_carry.insert(m_carry.end(), chunk.data, chunk.data + chunk.size); // short reads (a pipe): gather
        if (m_carry.size() >= n) {
            m_cur = m_carry.data();
            m_end = m_carry.data() + m_carry.size();
            return true;
        }
    }
}

std::uint64_t RecordInput::skip(std::uint64_t n)
{
    std::uint64_t done = 0;
    while (done < n) {
        if (available() == 0 && !ensure(1)) break;
        const std::size_t step = static_cast<std::size_t>(std::min<std::uint64_t>(available(), n - done));
        consume(step);
        done += step;
    }
    return done;
}

} // namespace rdt::perfdata

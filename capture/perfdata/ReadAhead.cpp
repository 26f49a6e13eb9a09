// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReadAhead.h"

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <unistd.h>

namespace rdt::perfdata {

ReadAhead::ReadAhead(int fd, bool positional, std::uint64_t offset, std::uint64_t end)
    : m_fd(fd)
    , m_positional(positional)
    , m_offset(offset)
    , m_end(end)
{ }

std::unique_ptr<ReadAhead> ReadAhead::file(int fd, std::uint64_t offset, std::uint64_t end)
{
    std::unique_ptr<ReadAhead> r(new ReadAhead(fd, true, offset, end));
    for (std::size_t i = 0; i < Chunks; ++i) {
        r->m_buffers.push_back(std::make_unique_for_overwrite<std::byte[]>(Reserve + ChunkBytes));
        r->m_free.push_back(i);
    }
    try {
        r->m_thread = std::thread([p = r.get()] { p->readLoop(); });
        r->m_threaded = true;
    } catch (const std::system_error&) {
        // No thread to be had (resource limits): the consumer reads the chunks itself, as for a pipe.
    }
    return r;
}

std::unique_ptr<ReadAhead> ReadAhead::stream(int fd)
{
    std::unique_ptr<ReadAhead> r(new ReadAhead(fd, false, 0, 0));
    for (std::size_t i = 0; i < 2; ++i) // the one the consumer still holds, and the next
        r->m_buffers.push_back(std::make_unique_for_overwrite<std::byte[]>(Reserve + ChunkBytes));
    return r;
}

ReadAhead::~ReadAhead()
{
    if (!m_threaded) return;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_freed.notify_one();
    m_thread.join();
}

std::size_t ReadAhead::fill(std::size_t index)
{
    std::byte* dst = chunkData(index);
    while (true) {
        std::size_t want = ChunkBytes;
        if (m_positional) want = static_cast<std::size_t>(std::min<std::uint64_t>(want, m_end - m_offset));
        if (want == 0) return 0;
        const ssize_t got
            = m_positional ? ::pread(m_fd, dst, want, static_cast<off_t>(m_offset)) : ::read(m_fd, dst, want);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0; // the end, or an error: the reader reports the data it did not get as cut short
        m_offset += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
    }
}

void ReadAhead::readLoop()
{
    while (true) {
        std::size_t index = 0;
        {
            std::unique_lock lock(m_mutex);
            if (m_free.empty() && !m_stop) {
                m_readerWaits = true;
                m_freed.wait(lock, [&] { return m_stop || m_free.size() >= Chunks / 2; });
                m_readerWaits = false;
            }
            if (m_stop) return;
            index = m_free.back();
            m_free.pop_back();
        }
        const std::size_t got = fill(index);
        bool wake = false;
        {
            std::lock_guard lock(m_mutex);
            if (got == 0)
                m_done = true;
            else
                m_filled.push_back({ index, got });
            wake = m_consumerWaits;
        }
        if (wake) m_filledOne.notify_one();
        if (got == 0) return;
    }
}

ReadAhead::Chunk ReadAhead::next()
{
    if (!m_threaded) {
        const std::size_t index = m_held ? (*m_held + 1) % m_buffers.size() : 0;
        m_held = index;
        return { chunkData(index), fill(index) };
    }
    std::unique_lock lock(m_mutex);
    if (m_held) {
        m_free.push_back(*m_held);
        m_held.reset();
        if (m_readerWaits && m_free.size() >= Chunks / 2) m_freed.notify_one();
    }
    if (!m_done && m_filled.empty()) {
        m_consumerWaits = true;
        m_filledOne.wait(lock, [&] { return m_done || !m_filled.empty(); });
        m_consumerWaits = false;
    }
    if (m_filled.empty()) return {};
    const Filled f = m_filled.front();
    m_filled.pop_front();
    m_held = f.index;
    return { chunkData(f.index), f.size };
}

} // namespace rdt::perfdata

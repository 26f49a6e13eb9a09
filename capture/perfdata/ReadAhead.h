// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace rdt::perfdata {

/// A descriptor read in chunks ahead of its consumer. A regular file is read with pread(2) on a thread of its own,
/// so the kernel's copy out of the page cache runs on the second core while the consumer decodes the chunk before
/// (the import then takes about as long as its own decoding, not reading + decoding). A pipe is read with read(2)
/// in the caller's thread: a thread blocked in read() on a silent writer could not be stopped.
/// Memory is bounded: `Chunks` buffers of `ChunkBytes`, each with `Reserve` bytes before it that the consumer may
/// write (RecordInput puts the start of a record cut by the chunk's edge there). The reading thread, faster than
/// its consumer, sleeps until half the buffers are free and then fills them in a row: one wake-up per half, not
/// per chunk (in a VM each futex wake-up costs as much as copying a chunk).
class ReadAhead {
public:
    static constexpr std::size_t ChunkBytes = 128u << 10;
    static constexpr std::size_t Chunks = 8;
    static constexpr std::size_t Reserve = 64u << 10; ///< > the largest record (perf_event_header.size is a u16)

    /// [offset, end) of a regular file.
    static std::unique_ptr<ReadAhead> file(int fd, std::uint64_t offset, std::uint64_t end);
    /// A stream (pipe) until its end; `fd` is not owned.
    static std::unique_ptr<ReadAhead> stream(int fd);
    ~ReadAhead();
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    struct Chunk {
        std::byte* data = nullptr; ///< Reserve writable bytes precede it
        std::size_t size = 0; ///< 0: the end of the input (or a read error)
    };
    /// The next chunk. The previous one goes back to the reader, so it must not be used any more.
    Chunk next();

private:
    ReadAhead(int fd, bool positional, std::uint64_t offset, std::uint64_t end);
    /// One read into buffer `index`: bytes read, 0 at the end of the input or on an error.
    std::size_t fill(std::size_t index);
    void readLoop();
    std::byte* chunkData(std::size_t index) const { return m_buffers[index].get() + Reserve; }

    int m_fd;
    bool m_positional;
    std::uint64_t m_offset, m_end; ///< positional: next byte to read and the end
    std::vector<std::unique_ptr<std::byte[]>> m_buffers;
    std::optional<std::size_t> m_held; ///< the buffer the consumer has
    bool m_threaded = false;

    // Between the reading thread and the consumer (m_threaded).
    struct Filled {
        std::size_t index = 0, size = 0;
    };
    std::mutex m_mutex;
    std::condition_variable m_freed; ///< the reading thread waits here for buffers
    std::condition_variable m_filledOne; ///< the consumer waits here for a chunk
    bool m_readerWaits = false, m_consumerWaits = false; ///< who to wake (a wake-up nobody waits for is a syscall)
    std::deque<Filled> m_filled;
    std::vector<std::size_t> m_free;
    bool m_done = false; ///< the reading thread read the last chunk
    bool m_stop = false; ///< the consumer is gone
    std::thread m_thread;
};

} // namespace rdt::perfdata

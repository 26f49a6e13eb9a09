// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace rdt::perfdata {

/// The records of a file-mode data section walked on two threads, each reading (pread(2)) and handling chunks: the
/// kernel's copy out of the page cache and the decoding both run on both cores (docs/PMU.md "Reading at the
/// page-cache rate").
///
/// A few chunk buffers are shared. A thread takes the first job there is, in this order: handle a walked chunk's
/// records; walk the next chunk in file order when it has been read; read the next chunk into a free buffer. It
/// sleeps only when none is left (every buffer read ahead and the next one to walk still being read by the other
/// thread): threads never wait for each other chunk by chunk, which on a loaded machine would cost a scheduler
/// wake-up each time. A thread preempted in the middle of a read would hold the walk up for a time slice, so after
/// `Stall` without a job the other reads that chunk again into the spare buffer. Ordered records never make a
/// thread wait either: the thread applying them applies whatever batches are due, the others leave theirs. Record
/// boundaries are only known by walking the headers from the start, so the walk is a chain, in file order, under the
/// lock (a few hundred loads per chunk): the record cut by a chunk's edge is copied in front of the next chunk (less
/// than one record). Records of the fast types go to `onFast` on the thread that handles their chunk, in no particular
/// order between threads; every other record is copied and given to `onOrdered`, one at a time, in file order (chunk by
/// chunk, whichever thread finishes the chunk before it).
///
/// The walk stops, leaving the rest to a single-threaded reader, at the first record it does not take: a record of
/// a type that `stopsWalk` (records changing how later ones decode, or followed by a payload), a header whose size
/// is below 8, a short read (the file cut short while read), or the end of the section. run() returns that offset;
/// the reader then reads from there with its usual checks and messages, so a damaged file reports what a
/// single-threaded pass reports.
class ParallelRecordWalk {
public:
    static constexpr std::size_t ChunkBytes = 256u << 10;
    static constexpr std::size_t Buffers = 5; ///< 4 read ahead and one to read a stalled chunk again: 5 x 320 KiB
    /// How long a thread with nothing to do waits for the other's read of the next chunk before reading it too.
    static constexpr std::chrono::microseconds Stall { 500 };
    static constexpr std::size_t Reserve = 64u << 10; ///< > the largest record (perf_event_header.size is a u16)
    static constexpr unsigned Threads = 2;

    struct Handlers {
        /// Whether records of a type go to onFast.
        std::function<bool(std::uint32_t type)> isFast;
        /// Whether the walk stops before a record of this type.
        std::function<bool(std::uint32_t type)> stopsWalk;
        /// A fast record at file offset `at`, on thread `thread` (< Threads); called concurrently.
        std::function<void(unsigned thread, std::span<const std::byte> record, std::uint64_t at)> onFast;
        /// Any other record, in file order, never concurrently.
        std::function<void(std::span<const std::byte> record, std::uint64_t at)> onOrdered;
        /// On the calling thread after each chunk it read or handled: (bytes of the records handled so far); false
        /// cancels the walk.
        std::function<bool(std::uint64_t walked)> progress;
    };
    struct Outcome {
        std::uint64_t stoppedAt = 0; ///< offset of the first record not walked (the section's end when all were)
        std::uint64_t bytes = 0; ///< bytes of the records walked
        bool cancelled = false;
        unsigned threads = 1; ///< threads that ran (1 when no second thread could be started)
    };

    ParallelRecordWalk(int fd, std::uint64_t begin, std::uint64_t end, Handlers handlers);
    Outcome run();

private:
    struct Buffer {
        enum class State { Free, Reading, Read, Walked, Handling };
        std::unique_ptr<std::byte[]> memory; ///< Reserve bytes for the cut record, then ChunkBytes
        State state = State::Free;
        std::uint64_t chunk = 0;
        std::size_t want = 0, got = 0;
        unsigned reader = 0; ///< the thread that read it (it handles it when it can: the bytes are in its cache)
        std::uint64_t startAt = 0; ///< walked: file offset of `start`
        const std::byte* start = nullptr; ///< walked: the first record (in the reserve when cut)
        std::vector<std::uint32_t> sizes; ///< walked: the sizes of its whole records, in order
        std::byte* data() const { return memory.get() + Reserve; }
    };
    struct Batch { ///< ordered records of one chunk, copied
        std::vector<std::byte> bytes;
        std::vector<std::pair<std::uint64_t, std::uint32_t>> records; ///< offset, size
    };
    void work(unsigned thread);
    /// Walks buffer `b` (the next chunk in file order; under m_mutex).
    void walk(Buffer& b);
    void handle(unsigned thread, Buffer& b);
    /// Reads [offset, offset + n) into dst; fewer bytes at the end of the file or on an error.
    std::size_t readFull(std::byte* dst, std::size_t n, std::uint64_t offset) const;
    /// Hands chunk `chunk`'s ordered records over; applies every batch whose turn has come.
    void submit(std::uint64_t chunk, Batch batch);

    int m_fd;
    std::uint64_t m_begin, m_end;
    Handlers m_h;
    std::atomic<bool> m_cancel { false };
    std::atomic<std::uint64_t> m_bytesSeen { 0 }; ///< bytes of the records handled (progress)

    std::mutex m_mutex; ///< guards everything below but the bytes of buffers being read or handled
    std::condition_variable m_moved;
    unsigned m_sleepers = 0; ///< threads waiting on m_moved (a notify nobody waits for is a syscall saved)
    std::vector<Buffer> m_buffers;
    std::uint64_t m_nextRead = 0; ///< the next chunk to read
    std::uint64_t m_nextWalk = 0; ///< the next chunk to walk
    bool m_stopped = false; ///< the walk ended at m_chainAt
    std::vector<std::byte> m_tail; ///< the first bytes of the record cut by the last walked chunk's edge
    std::uint64_t m_chainAt = 0; ///< offset of the first record not walked (m_tail's offset)
    std::uint64_t m_bytes = 0; ///< bytes of the records walked

    // Ordered records, applied in chunk order.
    std::mutex m_orderedMutex;
    std::map<std::uint64_t, Batch> m_pending;
    std::uint64_t m_nextBatch = 0;
    bool m_applying = false; ///< a thread is applying batches (the others leave theirs in m_pending)
};

} // namespace rdt::perfdata

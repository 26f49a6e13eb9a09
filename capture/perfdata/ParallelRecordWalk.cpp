// SPDX-License-Identifier: GPL-3.0-or-later
// perf.data records are {u32 type, u16 misc, u16 size} then the body (struct perf_event_header, the kernel's
// include/uapi/linux/perf_event.h); their sizes chain from the data section's start (docs/PMU.md).
#include "ParallelRecordWalk.h"

#include "pmu/PerfRecordBytes.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace rdt::perfdata {

using pmu::loadAt;

ParallelRecordWalk::ParallelRecordWalk(int fd, std::uint64_t begin, std::uint64_t end, Handlers handlers)
    : m_fd(fd)
    , m_begin(begin)
    , m_end(end)
    , m_h(std::move(handlers))
    , m_chainAt(begin)
{ }

std::size_t ParallelRecordWalk::readFull(std::byte* dst, std::size_t n, std::uint64_t offset) const
{
    std::size_t done = 0;
    while (done < n) {
        const ssize_t got = ::pread(m_fd, dst + done, n - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break; // the end, or an error: the single-threaded reader goes on from here and says which
        done += static_cast<std::size_t>(got);
    }
    return done;
}

ParallelRecordWalk::Outcome ParallelRecordWalk::run()
{
    Outcome out;
    out.stoppedAt = m_begin;
    if (m_begin >= m_end) return out;
    m_buffers.resize(Buffers);
    for (auto& b : m_buffers)
        b.memory = std::make_unique_for_overwrite<std::byte[]>(Reserve + ChunkBytes);
    std::thread helper;
    try {
        helper = std::thread([this] { work(1); });
        out.threads = 2;
    } catch (const std::system_error&) {
        // No second thread (resource limits): this one does every job.
    }
    work(0);
    if (helper.joinable()) helper.join();
    out.stoppedAt = m_chainAt;
    out.bytes = m_bytes;
    out.cancelled = m_cancel.load();
    return out;
}

void ParallelRecordWalk::work(unsigned thread)
{
    using State = Buffer::State;
    std::unique_lock lock(m_mutex);
    std::optional<std::chrono::steady_clock::time_point> stalledSince; ///< since when this thread found no job
    const auto progress = [&] { // the caller's callback, on the caller's thread (unlocked)
        if (thread == 0 && m_h.progress && !m_h.progress(m_bytesSeen.load())) m_cancel.store(true);
    };
    const auto moved = [&] {
        if (m_sleepers) m_moved.notify_all();
    };
    while (true) {
        // 1. Handle a walked chunk, preferably one this thread read.
        Buffer* job = nullptr;
        for (auto& b : m_buffers)
            if (b.state == State::Walked && (!job || b.reader == thread)) job = &b;
        if (job) {
            stalledSince.reset();
            job->state = State::Handling;
            lock.unlock();
            handle(thread, *job);
            progress();
            lock.lock();
            job->state = State::Free;
            moved();
            continue;
        }
        // 2. Walk the next chunk in file order when it has been read.
        if (!m_stopped) {
            for (auto& b : m_buffers)
                if (b.state == State::Read && b.chunk == m_nextWalk) job = &b;
            if (job) {
                stalledSince.reset();
                walk(*job);
                moved();
                continue;
            }
        }
        // 3. Read the next chunk into a free buffer, keeping one free for 4.
        // 4. Or, when the other thread has been reading the next chunk to walk for a while (preempted on a loaded
        //    machine, where it may not run again for milliseconds), read it too: whichever read ends first is
        //    walked, the other is dropped.
        std::size_t free = 0;
        for (auto& b : m_buffers)
            if (b.state == State::Free) {
                job = &b;
                ++free;
            }
        std::optional<std::uint64_t> chunk;
        if (!m_stopped && m_begin + m_nextRead * ChunkBytes < m_end && free > 1) {
            chunk = m_nextRead++;
        } else if (!m_stopped && free > 0 && stalledSince && std::chrono::steady_clock::now() - *stalledSince > Stall) {
            for (auto& b : m_buffers)
                if (b.state == State::Reading && b.chunk == m_nextWalk) chunk = m_nextWalk;
        }
        if (chunk) {
            stalledSince.reset();
            const std::uint64_t at = m_begin + *chunk * ChunkBytes;
            job->state = State::Reading;
            job->chunk = *chunk;
            job->reader = thread;
            job->want = static_cast<std::size_t>(std::min<std::uint64_t>(ChunkBytes, m_end - at));
            lock.unlock();
            const std::size_t got = readFull(job->data(), job->want, at);
            progress(); // also while the other thread handles every chunk: the caller still hears how far it is
            lock.lock();
            job->got = got;
            bool unused = m_stopped || job->chunk < m_nextWalk; // read past the walk's end, or read twice
            for (const auto& b : m_buffers)
                unused = unused || (&b != job && b.chunk == job->chunk && b.state == State::Read);
            job->state = unused ? State::Free : State::Read;
            moved();
            continue;
        }
        // 5. Nothing to do now: the end, or wait for the other thread's read or handling.
        if (m_stopped) break;
        if (!stalledSince) stalledSince = std::chrono::steady_clock::now();
        ++m_sleepers;
        m_moved.wait_for(lock, Stall);
        --m_sleepers;
    }
}

void ParallelRecordWalk::walk(Buffer& b)
{
    if (m_cancel.load()) {
        m_stopped = true;
        b.state = Buffer::State::Free;
        return;
    }
    // The record cut by the previous chunk's edge goes in front of this one.
    std::byte* const start = b.data() - m_tail.size();
    std::memcpy(start, m_tail.data(), m_tail.size());
    const std::byte* p = start;
    const std::byte* const limit = b.data() + b.got;
    bool stop = false;
    b.sizes.clear();
    while (limit - p >= 8) {
        const auto type = loadAt<std::uint32_t>(p);
        const auto size = loadAt<std::uint16_t>(p + 6);
        if (size < 8 || m_h.stopsWalk(type)) {
            stop = true;
            break;
        }
        if (static_cast<std::size_t>(limit - p) < size) break;
        b.sizes.push_back(size);
        p += size;
    }
    const std::uint64_t at = m_begin + b.chunk * ChunkBytes;
    if (b.got < b.want || at + b.got == m_end) stop = true; // the end, or the file was cut short while read
    b.start = start;
    b.startAt = m_chainAt;
    const auto walked = static_cast<std::uint64_t>(p - start);
    m_chainAt += walked;
    m_bytes += walked;
    if (stop)
        m_stopped = true;
    else
        m_tail.assign(p, limit);
    ++m_nextWalk;
    b.state = Buffer::State::Walked;
}

void ParallelRecordWalk::handle(unsigned thread, Buffer& b)
{
    Batch batch;
    const std::byte* rec = b.start;
    std::uint64_t at = b.startAt;
    for (const std::uint32_t size : b.sizes) {
        if (m_h.isFast(loadAt<std::uint32_t>(rec))) {
            m_h.onFast(thread, { rec, size }, at);
        } else {
            batch.records.emplace_back(at, size);
            batch.bytes.insert(batch.bytes.end(), rec, rec + size);
        }
        rec += size;
        at += size;
    }
    m_bytesSeen.fetch_add(at - b.startAt);
    submit(b.chunk, std::move(batch));
}

void ParallelRecordWalk::submit(std::uint64_t chunk, Batch batch)
{
    // Never waits for the thread applying (it may be preempted): the batch is left for it, and whoever applies
    // goes on while the next batch in order is there.
    std::unique_lock lock(m_orderedMutex);
    m_pending.emplace(chunk, std::move(batch));
    if (m_applying) return;
    m_applying = true;
    while (!m_pending.empty() && m_pending.begin()->first == m_nextBatch) {
        Batch next = std::move(m_pending.begin()->second);
        m_pending.erase(m_pending.begin());
        lock.unlock();
        std::size_t offset = 0;
        for (const auto& [at, size] : next.records) {
            m_h.onOrdered({ next.bytes.data() + offset, size }, at);
            offset += size;
        }
        lock.lock();
        ++m_nextBatch;
    }
    m_applying = false;
}

} // namespace rdt::perfdata

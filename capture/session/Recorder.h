// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionWriter.h"
#include "core/SpscQueue.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>

namespace rdt::session {

struct RecorderOptions {
    std::uint64_t flushIntervalNs = 500'000'000; ///< one transaction per flush (docs/SESSION-FORMAT.md "Durability")
    std::size_t queueCapacity = 4096; ///< items (batches/events) waiting for the recorder thread
    /// Called on the recorder thread after each successful commit with the number of samples now on disk.
    std::function<void(std::uint64_t committedSamples)> onFlush;
};

/// The recorder thread: producers push the engine's batches and events (never blocking: a full queue drops and
/// counts), the thread writes them into the session and commits every flushIntervalNs. After a write error
/// (disk full, I/O error) it stops writing, keeps what was committed and reports the error through error().
class Recorder {
public:
    using Item = std::variant<RdtSampleBatch, AllocationChanged, MembershipSnapshot, Marker, std::vector<TmaInterval>,
        PmuBatch, AddressMap, std::vector<Symbol>, SweepStepRow>;

    Recorder(std::unique_ptr<SessionWriter> writer, RecorderOptions options = {});
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    void start();
    /// Thread-safe for any number of producers (they serialize on a short lock before the lock-free queue).
    /// False when the item was dropped (queue full) or the recorder has failed or stopped.
    bool push(Item item);
    /// Drains the queue, writes everything, final flush, closes the file. Returns the write error if one
    /// happened. Idempotent.
    Status stop(const std::string& reason = "stopped");

    bool failed() const { return m_failed.load(std::memory_order_acquire); }
    std::optional<Error> error() const;
    std::uint64_t committedSamples() const { return m_committed.load(std::memory_order_relaxed); }
    /// Items lost because the queue was full (the recorder fell behind) plus those refused after a failure/stop.
    std::uint64_t dropped() const { return queueDropped() + discarded(); }
    std::uint64_t queueDropped() const { return m_queue.dropped(); }
    std::uint64_t discarded() const { return m_discarded.load(std::memory_order_relaxed); }
    std::uint64_t flushes() const { return m_flushes.load(std::memory_order_relaxed); }

private:
    void run();
    void write(Item& item);
    void afterFlush(const Status& s);

    std::unique_ptr<SessionWriter> m_writer;
    RecorderOptions m_options;
    SpscQueue<Item> m_queue;
    std::mutex m_pushMutex;
    std::mutex m_wakeMutex;
    std::condition_variable m_wake;
    std::thread m_thread;
    std::atomic<bool> m_stopRequested { false };
    std::atomic<bool> m_failed { false };
    std::atomic<bool> m_stopped { false };
    std::atomic<std::uint64_t> m_committed { 0 };
    std::atomic<std::uint64_t> m_flushes { 0 };
    std::atomic<std::uint64_t> m_discarded { 0 };
    mutable std::mutex m_errorMutex;
    std::optional<Error> m_error;
    Status m_closeStatus;
    std::string m_stopReason;
};

} // namespace rdt::session

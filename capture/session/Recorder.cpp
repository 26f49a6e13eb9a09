// SPDX-License-Identifier: GPL-3.0-or-later
#include "Recorder.h"

#include "core/Time.h"

#include <chrono>

namespace rdt::session {

Recorder::Recorder(std::unique_ptr<SessionWriter> writer, RecorderOptions options)
    : m_writer(std::move(writer))
    , m_options(std::move(options))
    , m_queue(m_options.queueCapacity)
{ }

Recorder::~Recorder()
{
    (void)stop("recorder destroyed");
}

void Recorder::start()
{
    if (!m_thread.joinable() && !m_stopped.load()) m_thread = std::thread([this] { run(); });
}

bool Recorder::push(Item item)
{
    if (m_failed.load(std::memory_order_acquire) || m_stopRequested.load(std::memory_order_acquire)) {
        m_discarded.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    bool ok;
    {
        std::lock_guard lock(m_pushMutex);
        ok = m_queue.push(std::move(item));
    }
    m_wake.notify_one();
    return ok;
}

std::optional<Error> Recorder::error() const
{
    std::lock_guard lock(m_errorMutex);
    return m_error;
}

void Recorder::write(Item& item)
{
    if (m_failed.load(std::memory_order_relaxed)) {
        m_discarded.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    SessionWriter& w = *m_writer;
    Status s = std::visit(
        [&w](auto& v) -> Status {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, RdtSampleBatch>)
                return w.addSamples(v);
            else if constexpr (std::is_same_v<T, AllocationChanged>)
                return w.addAllocation(v);
            else if constexpr (std::is_same_v<T, MembershipSnapshot>)
                return w.addMembership(v);
            else if constexpr (std::is_same_v<T, Marker>)
                return w.addMarker(v);
            else if constexpr (std::is_same_v<T, std::vector<TmaInterval>>)
                return w.addTma(v);
            else if constexpr (std::is_same_v<T, PmuBatch>)
                return w.addPmuBatch(v);
            else if constexpr (std::is_same_v<T, AddressMap>)
                return w.addAddressMap(v);
            else if constexpr (std::is_same_v<T, SweepStepRow>)
                return w.addSweepStep(v);
            else
                return w.addSymbols(v);
        },
        item);
    if (!s) afterFlush(s);
}

void Recorder::afterFlush(const Status& s)
{
    if (s) {
        m_committed.store(m_writer->committedSamples(), std::memory_order_relaxed);
        m_flushes.fetch_add(1, std::memory_order_relaxed);
        if (m_options.onFlush) m_options.onFlush(m_writer->committedSamples());
        return;
    }
    if (!m_failed.load(std::memory_order_relaxed)) {
        {
            std::lock_guard lock(m_errorMutex);
            m_error = s.error();
        }
        m_failed.store(true, std::memory_order_release);
    }
}

void Recorder::run()
{
    using namespace std::chrono;
    std::uint64_t nextFlush = monotonicNs() + m_options.flushIntervalNs;
    for (;;) {
        const bool stopping = m_stopRequested.load(std::memory_order_acquire);
        while (auto item = m_queue.pop())
            write(*item);
        if (stopping) break; // the queue was drained after the stop request was seen
        const std::uint64_t now = monotonicNs();
        if (now >= nextFlush) {
            if (!m_failed.load(std::memory_order_relaxed)) afterFlush(m_writer->flush());
            nextFlush = now + m_options.flushIntervalNs;
            continue;
        }
        std::unique_lock lock(m_wakeMutex);
        // Woken by push() or stop(); the 20 ms cap bounds the latency of a notify that raced the wait.
        m_wake.wait_for(lock, nanoseconds(std::min<std::uint64_t>(nextFlush - now, 20'000'000)),
            [this] { return !m_queue.empty() || m_stopRequested.load(std::memory_order_acquire); });
    }
    if (!m_failed.load(std::memory_order_relaxed) && queueDropped() > 0)
        (void)m_writer->setMeta("dropped_items", std::to_string(queueDropped()));
    Status s = m_writer->close(m_stopReason);
    if (s) {
        m_committed.store(m_writer->committedSamples(), std::memory_order_relaxed);
        m_flushes.fetch_add(1, std::memory_order_relaxed);
    } else {
        afterFlush(s);
    }
}

Status Recorder::stop(const std::string& reason)
{
    if (m_stopped.exchange(true)) {
        auto e = error();
        return e ? Status(*e) : Status();
    }
    {
        std::lock_guard lock(m_wakeMutex);
        m_stopReason = reason;
        m_stopRequested.store(true, std::memory_order_release);
    }
    m_wake.notify_one();
    if (m_thread.joinable()) {
        m_thread.join();
    } else {
        // Never started: write what was queued on this thread.
        while (auto item = m_queue.pop())
            write(*item);
        m_stopReason = reason;
        if (Status s = m_writer->close(reason); !s)
            afterFlush(s);
        else
            m_committed.store(m_writer->committedSamples(), std::memory_order_relaxed);
    }
    auto e = error();
    return e ? Status(*e) : Status();
}

} // namespace rdt::session

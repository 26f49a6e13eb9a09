// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "Sample.h"
#include "core/SpscQueue.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace rdt {

class SimulationControl;

struct SamplerConfig {
    double rateHz = 10.0; ///< polls per second; clamped so a poll is never longer apart than maxPollIntervalNs
    std::size_t queueCapacity = 256; ///< batches; a full queue drops (counted in queue().dropped())
    std::vector<std::string> groups; ///< group paths to poll; empty = every group, re-listed each poll
    /// A wrap-corrected rate above this (bytes/s) is taken as a counter reset; 0 disables the check.
    double plausibleMaxBps = 2.0e12;
};

/// The RDT monitoring sampler (docs/ARCHITECTURE.md "Data flow"): polls the backend's counters at a fixed rate on its
/// own thread, differences them wrap-safely (CounterMath.h), computes bandwidth = delta / elapsed and publishes one
/// immutable RdtSampleBatch per poll into a bounded SPSC queue (and to an optional callback on the sampler
/// thread). The recorder or GUI is the single consumer of queue(). With a SimulationControl, each poll first
/// advances simulated time by one interval, and sample times are simulated time.
class Sampler {
public:
    Sampler(RdtBackend& backend, SamplerConfig config, SimulationControl* simulation = nullptr);
    ~Sampler(); ///< stops and joins the thread
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;

    /// Starts the thread. Fails when already running or when the backend has no monitoring.
    Status start();
    void stop();
    bool running() const { return m_running.load(std::memory_order_acquire); }

    /// One synchronous poll at `timeNs` (monotonic or simulated). For the CLI and tests; not while running().
    /// Publishes to the callback (or, without one, the queue) exactly as the thread does, and returns the batch too.
    Result<RdtSampleBatch> pollOnce(std::uint64_t timeNs);

    SpscQueue<RdtSampleBatch>& queue() { return m_queue; }
    /// Called with each batch instead of queueing it (on the sampler thread while running: keep it short, no GUI
    /// calls from here); the queue then stays empty, so a batch has one path to its one consumer. Set before start().
    void setCallback(std::function<void(const RdtSampleBatch&)> callback);

    /// The interval actually used (rate clamped to >= 1 Hz for 24-bit counters, 20.18.8).
    std::uint64_t intervalNs() const { return m_intervalNs; }
    /// A note when the requested rate was raised, "" otherwise.
    const std::string& rateNote() const { return m_rateNote; }
    std::uint64_t pollCount() const { return m_polls.load(std::memory_order_relaxed); }
    std::uint64_t pollErrors() const { return m_errors.load(std::memory_order_relaxed); }
    /// The last poll error's text ("" when none); thread-safe.
    std::string lastError() const;

private:
    /// One MBM counter's last good read (total and local each keep their own: one can fail while the other reads).
    struct CounterHistory {
        std::uint64_t timeNs = 0;
        std::uint64_t raw = 0;
        std::uint64_t bytes = 0; ///< cumulative wrap-corrected bytes handed out so far
        bool cleared = false; ///< an Unavailable read where that means "the kernel cleared the counter"
    };
    struct Previous {
        CounterHistory total;
        CounterHistory local;
    };
    /// The rate of one counter since its last good read, into `bps` and `flags`; a bad read keeps the history, so
    /// the next good read spans the gap.
    void advanceCounter(CounterHistory& h, std::uint64_t raw, bool overflow, bool bad, bool unavailable,
        std::uint64_t timeNs, std::uint64_t bytesPerUnit, double maxUnits, double& bps, std::uint32_t& flags) const;
    Result<RdtSampleBatch> poll(std::uint64_t timeNs);
    /// PERF_PKG_MON readings -> samples with per-second rates (a value that goes down is a reset, rate 0).
    void addTelemetry(const std::string& group, const GroupCounters& counters, RdtSampleBatch& batch);
    void run();

    RdtBackend& m_backend;
    SamplerConfig m_config;
    SimulationControl* m_simulation;
    unsigned m_counterWidth = 64;
    /// AMD (BMEC or assignable counters): an MBM read of "Unavailable" means the counter was cleared (a BMEC
    /// change, a counter reassigned), so the next good read counts from zero and is a reset (resctrl.rst
    /// "mbm_total_bytes_config"). On Intel it means no data this time, and the sum continues afterwards.
    bool m_unavailableClears = false;
    std::uint64_t m_intervalNs = 100'000'000;
    std::string m_rateNote;
    SpscQueue<RdtSampleBatch> m_queue;
    std::function<void(const RdtSampleBatch&)> m_callback;
    /// (group, domain, SNC node or -1) -> last reading; only touched by the polling thread
    std::map<std::tuple<std::string, int, int>, Previous> m_previous;
    /// (group, package, event) -> (time, last good value); only touched by the polling thread
    std::map<std::tuple<std::string, int, std::string>, std::pair<std::uint64_t, double>> m_previousTelemetry;
    std::atomic<bool> m_running { false };
    std::atomic<bool> m_stop { false };
    std::atomic<std::uint64_t> m_polls { 0 };
    std::atomic<std::uint64_t> m_errors { 0 };
    mutable std::mutex m_errorMutex;
    std::string m_lastError;
    std::mutex m_wakeMutex;
    std::condition_variable m_wake;
    std::thread m_thread;
};

} // namespace rdt

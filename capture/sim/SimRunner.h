// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimMachine.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace rdt::sim {

/// Runs a machine "in real time" (or `speed` times faster) on a background thread: every period of wall time it
/// advances simulated time by period x speed. When simulating takes longer than the wall time it stands for, the
/// runner falls behind and says so (lagging()); it never skips simulated time. RAII: the destructor stops and joins.
class SimRunner {
public:
    explicit SimRunner(SimMachine& machine, double speed = 1.0, std::uint64_t periodNs = 10'000'000);
    ~SimRunner();
    SimRunner(const SimRunner&) = delete;
    SimRunner& operator=(const SimRunner&) = delete;

    void setSpeed(double speed) { m_speed.store(speed); }
    double speed() const { return m_speed.load(); }
    /// Share of wall time spent simulating since start (1.0 = one full core).
    double load() const { return m_load.load(); }
    bool lagging() const { return m_lagging.load(); }
    void stop();

private:
    void run();
    SimMachine& m_machine;
    std::atomic<double> m_speed;
    std::uint64_t m_periodNs;
    std::atomic<double> m_load { 0.0 };
    std::atomic<bool> m_lagging { false };
    std::mutex m_waitMutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace rdt::sim

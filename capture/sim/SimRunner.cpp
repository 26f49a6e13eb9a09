// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimRunner.h"

#include "core/Time.h"

#include <chrono>

namespace rdt::sim {

SimRunner::SimRunner(SimMachine& machine, double speed, std::uint64_t periodNs)
    : m_machine(machine)
    , m_speed(speed)
    , m_periodNs(periodNs ? periodNs : 10'000'000)
{
    m_thread = std::thread([this] { run(); });
}

SimRunner::~SimRunner()
{
    stop();
}

void SimRunner::stop()
{
    {
        std::lock_guard lock(m_waitMutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
}

void SimRunner::run()
{
    const std::uint64_t wallStart = monotonicNs();
    const std::uint64_t simStart = m_machine.nowNs();
    double simulatedSec = 0, busy = 0;
    std::uint64_t wallSeen = wallStart;
    for (;;) {
        {
            std::unique_lock lock(m_waitMutex);
            m_wake.wait_for(lock, std::chrono::nanoseconds(m_periodNs), [this] { return m_stop; });
            if (m_stop) return;
        }
        const std::uint64_t now = monotonicNs();
        simulatedSec += double(now - wallSeen) * 1e-9 * m_speed.load();
        wallSeen = now;
        const auto target = simStart + static_cast<std::uint64_t>(simulatedSec * 1e9);
        const std::uint64_t t0 = monotonicNs();
        const std::uint64_t current = m_machine.nowNs();
        if (target > current) m_machine.advance(target - current);
        const std::uint64_t t1 = monotonicNs();
        busy += double(t1 - t0);
        m_load.store(busy / double(t1 - wallStart));
        m_lagging.store(t1 - t0 > m_periodNs * 2);
    }
}

} // namespace rdt::sim

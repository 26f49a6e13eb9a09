// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimMachine.h"
#include "SimResctrlTypes.h"
#include "core/Result.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rdt::sim {

class SimResctrlMonitoring;

/// The emulated kernel's PERF_PKG_MON resource (Intel telemetry, SimOptions::pkgTelemetry): info/PERF_PKG_MON and
/// mon_data/mon_PERF_PKG_XX per group, counted by a stated synthetic energy model over what the simulated threads
/// did, attributed per RMID per package as the hardware attributes telemetry.
class SimResctrlTelemetry {
public:
    SimResctrlTelemetry(SimMachine& machine, const SimResctrlMonitoring& monitoring);

    bool enabled() const;
    static std::vector<std::string> events();
    static std::string packageDirName(unsigned package); ///< "mon_PERF_PKG_01"
    /// c[at] below a group's mon_data is a mon_PERF_PKG_XX (and maybe an event file in it): fills r, true.
    bool resolve(const std::vector<std::string>& c, std::size_t at, ResctrlPath& r) const;
    /// Adds what the threads did since the last call, every 10 ms of simulated time.
    void accumulate(std::uint64_t nowNs);
    Result<std::string> readInfo(const std::string& file) const;
    Result<std::string> read(const ResctrlGroup& g, unsigned package, const std::string& event) const;

private:
    SimMachine& m_machine;
    const SimResctrlMonitoring& m_monitoring;
    /// (logical RMID, package) -> cumulative event values; each thread's stats at the last accumulation
    std::map<std::pair<std::uint32_t, unsigned>, std::array<double, 6>> m_telemetry;
    std::map<int, ThreadStats> m_telemetryLast;
    std::uint64_t m_lastTelemetryNs = 0;
};

} // namespace rdt::sim

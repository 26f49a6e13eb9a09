// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a lesson run has seen of the engine: every group's samples (from RdtSampleBatch events), every group's
// allocation (a snapshot at the start, then AllocationChanged events), the groups that exist and the sampling
// interval. Expressions (LessonExpr.h) read it through Measurements, over a window of simulated time.

#include "LessonExpr.h"
#include "engine/EngineTypes.h"
#include "engine/PmuTypes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rdt::lesson {

class RunMeasurements final : public Measurements {
public:
    /// Forgets everything and starts from the engine's state now (groups, schemata, sampling interval).
    void reset(const engine::GroupsSnapshot& snapshot, std::uint64_t samplingNs);
    void observe(const engine::EngineEvent& event);
    /// The groups that exist, their allocations, whether CDP is on and the sampling interval, re-read (no event says
    /// a group appeared, or that a remount switched CDP).
    void refresh(const engine::GroupsSnapshot& snapshot, std::uint64_t samplingNs);

    /// Metrics average the samples taken in [fromNs, toNs].
    void setWindow(std::uint64_t fromNs, std::uint64_t toNs);
    void setVariable(const std::string& name, double value) { m_variables[name] = value; }
    std::size_t sampleCount(const std::string& group) const;
    /// The lesson's simulated PMU capture: whether one runs (`pmu()`), and its latest report (PMU functions).
    void setPmuRunning(bool running) { m_pmuRunning = running; }
    void setPmuReport(std::optional<engine::PmuReport> report) { m_pmuReport = std::move(report); }
    const std::optional<engine::PmuReport>& pmuReport() const { return m_pmuReport; }

    std::optional<double> metric(
        const std::string& function, const std::vector<std::string>& args, std::string& why) const override;
    std::optional<double> variable(const std::string& name, std::string& why) const override;

private:
    struct Point {
        std::uint64_t timeNs = 0;
        double occupancyBytes = 0, totalBps = 0, localBps = 0;
        std::uint32_t flags = 0;
    };
    std::optional<double> mean(
        const std::string& group, double Point::*field, std::uint32_t unknownFlags, std::string& why) const;
    std::optional<double> count(const std::string& group, std::uint32_t flag, std::string& why) const;
    std::optional<double> waysOf(const std::string& path, const std::string& resource, std::string& why) const;
    /// The control group whose `cpus` hold `cpu` ("" = the default group, which holds every CPU no other group has).
    std::optional<std::string> groupOfCpu(const std::string& cpu, std::string& why) const;

    std::map<std::string, std::vector<Point>> m_points; ///< by group path ("" = default group), domains summed
    std::map<std::string, Schemata> m_schemata;
    /// The CPUs each control group's `cpus` file held at the last snapshot (groups whose list was read).
    std::map<std::string, std::vector<unsigned>> m_cpus;
    std::set<std::string> m_groups;
    std::map<std::string, double> m_variables;
    std::uint64_t m_samplingNs = 0;
    std::uint64_t m_fromNs = 0, m_toNs = 0;
    bool m_pmuRunning = false;
    std::map<std::string, std::uint64_t> m_createdNs, m_removedNs; ///< when a snapshot first showed a group made / gone
    bool m_cdp = false; ///< the snapshot's control groups have L3CODE masks
    std::optional<engine::PmuReport> m_pmuReport;
};

/// "default" and "/" name the default group ("" in resctrl paths); other names are paths.
std::string groupPath(const std::string& name);

} // namespace rdt::lesson

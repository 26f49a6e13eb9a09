// SPDX-License-Identifier: GPL-3.0-or-later
#include "RunMeasurements.h"

#include "PmuMeasurements.h"

#include <algorithm>
#include <bit>

namespace rdt::lesson {

std::string groupPath(const std::string& name)
{
    return name == "default" || name == "/" ? std::string() : name;
}

void RunMeasurements::reset(const engine::GroupsSnapshot& snapshot, std::uint64_t samplingNs)
{
    m_points.clear();
    m_schemata.clear();
    m_variables.clear();
    m_pmuRunning = false;
    m_pmuReport.reset();
    for (const auto& g : snapshot.groups)
        if (g.info.isControl) m_schemata[g.info.path] = g.schemata;
    m_groups.clear();
    refresh(snapshot, samplingNs);
    m_createdNs.clear(); // the groups the lesson starts with were not made in it
    m_removedNs.clear();
}

void RunMeasurements::refresh(const engine::GroupsSnapshot& snapshot, std::uint64_t samplingNs)
{
    m_samplingNs = samplingNs;
    const std::set<std::string> before = std::move(m_groups);
    m_groups.clear();
    m_cdp = false;
    m_cpus.clear();
    for (const auto& g : snapshot.groups) {
        m_groups.insert(g.info.path);
        if (g.info.isControl && g.cpusKnown) m_cpus[g.info.path] = g.cpus;
        if (!before.count(g.info.path)) m_createdNs[g.info.path] = snapshot.timeNs;
        // A remount (CDP on or off) changes every group's resources without AllocationChanged events: the
        // snapshot is the truth then.
        if (!g.info.isControl || !g.schemataError.empty()) continue;
        m_schemata[g.info.path] = g.schemata;
        if (g.schemata.value("L3CODE", 0)) m_cdp = true;
    }
    for (const auto& g : before)
        if (!m_groups.count(g)) m_removedNs[g] = snapshot.timeNs;
}

void RunMeasurements::observe(const engine::EngineEvent& event)
{
    if (const auto* batch = std::get_if<RdtSampleBatch>(&event)) {
        for (const auto& s : batch->samples) {
            auto& points = m_points[s.group];
            // One point per poll: a group's domains (sockets) add up.
            if (points.empty() || points.back().timeNs != s.timeNs) points.push_back({ s.timeNs, 0, 0, 0, 0 });
            auto& p = points.back();
            p.occupancyBytes += double(s.occupancyBytes);
            p.totalBps += s.mbmTotalBps;
            p.localBps += s.mbmLocalBps;
            p.flags |= s.flags;
        }
    } else if (const auto* change = std::get_if<AllocationChanged>(&event)) {
        if (change->ok) m_schemata[change->group].set(change->resource, change->domain, change->newValue);
    }
}

void RunMeasurements::setWindow(std::uint64_t fromNs, std::uint64_t toNs)
{
    m_fromNs = fromNs;
    m_toNs = toNs;
}

std::size_t RunMeasurements::sampleCount(const std::string& group) const
{
    auto it = m_points.find(groupPath(group));
    return it == m_points.end() ? 0 : it->second.size();
}

std::optional<double> RunMeasurements::mean(
    const std::string& group, double Point::*field, std::uint32_t unknownFlags, std::string& why) const
{
    auto it = m_points.find(groupPath(group));
    if (it == m_points.end()) {
        why = "no samples of group '" + group + "'";
        return std::nullopt;
    }
    double sum = 0;
    std::size_t n = 0;
    for (const auto& p : it->second) {
        if (p.timeNs < m_fromNs || p.timeNs > m_toNs) continue;
        // Sample.h's rules: a series' first sample has no rate, an unreadable counter carries no value.
        if (p.flags & unknownFlags) continue;
        sum += p.*field;
        ++n;
    }
    if (n == 0) {
        why = "no valid sample of group '" + group + "' in the step's window";
        return std::nullopt;
    }
    return sum / double(n);
}

std::optional<double> RunMeasurements::count(const std::string& group, std::uint32_t flag, std::string& why) const
{
    auto it = m_points.find(groupPath(group));
    if (it == m_points.end()) {
        why = "no samples of group '" + group + "'";
        return std::nullopt;
    }
    double n = 0;
    for (const auto& p : it->second)
        if (p.timeNs >= m_fromNs && p.timeNs <= m_toNs && (p.flags & flag)) ++n;
    return n;
}

std::optional<double> RunMeasurements::metric(
    const std::string& function, const std::vector<std::string>& args, std::string& why) const
{
    if (function == "sampling") return double(m_samplingNs) * 1e-9;
    if (function == "pmu") return m_pmuRunning ? 1.0 : 0.0;
    if (function == "cdp") return m_cdp ? 1.0 : 0.0;
    if (isPmuFunction(function)) {
        if (!m_pmuReport) {
            why = function + "(): no PMU capture has run in this lesson yet";
            return std::nullopt;
        }
        return pmuMetric(*m_pmuReport, function, args, why);
    }
    if (args.empty()) {
        why = function + "() needs a group";
        return std::nullopt;
    }
    const std::string& group = args[0];
    if (function == "occupancy") {
        auto v = mean(group, &Point::occupancyBytes, kOccupancyUnknown, why);
        return v ? std::optional(*v / double(1 << 20)) : std::nullopt;
    }
    if (function == "bandwidth" || function == "local") {
        auto v = mean(group, function == "local" ? &Point::localBps : &Point::totalBps,
            function == "local" ? kMbmLocalRateUnknown : kMbmTotalRateUnknown, why);
        return v ? std::optional(*v / 1e6) : std::nullopt;
    }
    if (function == "wraps") return count(group, SampleWrapped, why);
    if (function == "multiwraps") return count(group, SampleMaybeMultiWrap, why);
    if (function == "overflows") return count(group, SampleOverflowBit, why);
    if (function == "exists") return m_groups.count(groupPath(group)) ? 1.0 : 0.0;
    if (function == "createdat" || function == "removedat") {
        const auto& times = function == "createdat" ? m_createdNs : m_removedNs;
        auto it = times.find(groupPath(group));
        if (it == times.end()) {
            why = "the lesson has not seen group '" + group + "' " + (function == "createdat" ? "made" : "removed");
            return std::nullopt;
        }
        return double(it->second) * 1e-9;
    }
    if (function == "ways") return waysOf(groupPath(group), args.size() > 1 ? args[1] : "L3", why);
    if (function == "cpuways") {
        // A task without a CLOSID of its own runs with its CPU's: the CLOSID of the control group whose cpus hold
        // that CPU (Documentation/filesystems/resctrl.rst "Resource allocation rules"), as pqos -a "llc:COS=CPUS" sets.
        auto owner = groupOfCpu(group, why);
        if (!owner) return std::nullopt;
        return waysOf(*owner, args.size() > 1 ? args[1] : "L3", why);
    }
    if (function == "mb") {
        auto it = m_schemata.find(groupPath(group));
        const std::string resource = args.size() > 1 ? args[1] : "MB";
        auto value = it == m_schemata.end() ? std::nullopt : it->second.value(resource, 0);
        if (!value) {
            why = "group '" + group + "' has no " + resource + " allocation in domain 0";
            return std::nullopt;
        }
        auto b = parseBandwidth(*value);
        if (!b) return std::nullopt;
        return double(*b);
    }
    why = "unknown function " + function;
    return std::nullopt;
}

std::optional<double> RunMeasurements::waysOf(
    const std::string& path, const std::string& resource, std::string& why) const
{
    const std::string name = path.empty() ? "default" : path;
    auto it = m_schemata.find(path);
    auto value = it == m_schemata.end() ? std::nullopt : it->second.value(resource, 0);
    if (!value) {
        why = "group '" + name + "' has no " + resource + " allocation in domain 0";
        return std::nullopt;
    }
    auto mask = parseMask(*value);
    if (!mask) {
        why = "group '" + name + "' has an unreadable " + resource + " mask '" + *value + "'";
        return std::nullopt;
    }
    return double(std::popcount(*mask));
}

std::optional<std::string> RunMeasurements::groupOfCpu(const std::string& cpu, std::string& why) const
{
    if (cpu.empty() || cpu.size() > 6 || cpu.find_first_not_of("0123456789") != std::string::npos) {
        why = "'" + cpu + "' is not a CPU number";
        return std::nullopt;
    }
    const unsigned n = static_cast<unsigned>(std::stoul(cpu));
    for (const auto& [path, cpus] : m_cpus)
        if (!path.empty() && std::find(cpus.begin(), cpus.end(), n) != cpus.end()) return path;
    const auto root = m_cpus.find("");
    if (root == m_cpus.end() || std::find(root->second.begin(), root->second.end(), n) == root->second.end()) {
        why = "no control group's cpus list CPU " + cpu;
        return std::nullopt;
    }
    return std::string();
}

std::optional<double> RunMeasurements::variable(const std::string& name, std::string& why) const
{
    auto it = m_variables.find(name);
    if (it == m_variables.end()) {
        why = "no earlier step remembered $" + name;
        return std::nullopt;
    }
    return it->second;
}

} // namespace rdt::lesson

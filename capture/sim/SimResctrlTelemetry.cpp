// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated kernel's PERF_PKG_MON resource (Intel telemetry, Linux 7.0; series "x86,fs/resctrl telemetry
// monitoring"): info/PERF_PKG_MON and mon_data/mon_PERF_PKG_XX per group. The counts are synthetic: a stated energy
// model over what the simulated threads did (ThreadStats), attributed to the RMID each thread ran with and the
// package its CPU is in, as the hardware attributes telemetry per RMID per package.
#include "SimResctrlTelemetry.h"

#include "SimResctrlMonitoring.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>

namespace rdt::sim {

namespace {
// The events the model can derive from ThreadStats, in the kernel's mon_features order (energy GUID first). The perf
// GUID's c1_res, auto_c6_res and stalls_llc_hit need idle states and hit stalls the model does not have: not listed.
constexpr const char* kTelemetryEvents[]
    = { "core_energy", "activity", "unhalted_core_cycles", "stalls_llc_miss", "unhalted_ref_cycles", "uops_retired" };
constexpr std::size_t kEnergy = 0, kActivity = 1, kCycles = 2, kStalls = 3, kRefCycles = 4, kUops = 5;

// The energy model (synthetic, order of magnitude of a server core at 2-3 GHz): every cycle a core runs costs
// 0.3 nJ of leakage and clocking plus 0.5 nJ of switching; each retired instruction 0.3 nJ more, each byte moved to
// or from memory 0.05 nJ. Activity is the switched capacitance C = E_dynamic / V^2 at V = 0.8 V.
constexpr double kStaticJPerCycle = 0.3e-9, kDynamicJPerCycle = 0.5e-9, kJPerInstruction = 0.3e-9,
                 kJPerMemoryByte = 0.05e-9, kVolts = 0.8;
constexpr std::uint64_t kAccumulateEveryNs = 10'000'000; // 10 ms of simulated time
}

SimResctrlTelemetry::SimResctrlTelemetry(SimMachine& machine, const SimResctrlMonitoring& monitoring)
    : m_machine(machine)
    , m_monitoring(monitoring)
{ }

bool SimResctrlTelemetry::enabled() const
{
    return m_monitoring.present() && m_machine.options().pkgTelemetry;
}

std::vector<std::string> SimResctrlTelemetry::events()
{
    return { std::begin(kTelemetryEvents), std::end(kTelemetryEvents) };
}

std::string SimResctrlTelemetry::packageDirName(unsigned package)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "mon_PERF_PKG_%02u", package); // the kernel's "mon_%s_%02d"
    return buf;
}

bool SimResctrlTelemetry::resolve(const std::vector<std::string>& c, std::size_t at, ResctrlPath& r) const
{
    unsigned pkg = 0;
    if (!enabled() || std::sscanf(c[at].c_str(), "mon_PERF_PKG_%02u", &pkg) != 1
        || pkg >= m_machine.options().topology.sockets || c[at] != packageDirName(pkg))
        return false;
    r.domain = static_cast<int>(pkg);
    r.package = true;
    if (at + 1 == c.size()) r.kind = ResctrlPath::MonDomainDir;
    const auto names = events();
    if (at + 2 == c.size() && std::find(names.begin(), names.end(), c[at + 1]) != names.end()) {
        r.kind = ResctrlPath::MonFile;
        r.file = c[at + 1];
    }
    return true;
}

void SimResctrlTelemetry::accumulate(std::uint64_t nowNs)
{
    if (!enabled() || nowNs - m_lastTelemetryNs < kAccumulateEveryNs) return;
    m_lastTelemetryNs = nowNs;
    const auto& topo = m_machine.options().topology;
    for (const auto& t : m_machine.threads()) {
        auto& last = m_telemetryLast[t.tid];
        const double cycles = t.stats.cycles - last.cycles;
        const double instructions = t.stats.instructions - last.instructions;
        const double stalls = t.stats.memoryStallCycles - last.memoryStallCycles;
        const double bytes = static_cast<double>(
            (t.stats.memReadBytes + t.stats.memWriteBytes) - (last.memReadBytes + last.memWriteBytes));
        last = t.stats;
        if (cycles <= 0 && instructions <= 0) continue;
        // PERF_PKG_MON counts per logical RMID: SNC's per-node hardware RMIDs fold back (logical_rmid_to_physical).
        const std::uint32_t rmid = t.rmid % m_monitoring.rmidsPerNode();
        auto& acc = m_telemetry[{ rmid, topo.socketOf(t.cpu) }];
        const double dynamic = cycles * kDynamicJPerCycle + instructions * kJPerInstruction + bytes * kJPerMemoryByte;
        acc[kEnergy] += cycles * kStaticJPerCycle + dynamic;
        acc[kActivity] += dynamic / (kVolts * kVolts);
        acc[kCycles] += cycles;
        acc[kStalls] += stalls;
        acc[kRefCycles] += cycles; // the model runs at its nominal frequency
        acc[kUops] += instructions;
    }
}

Result<std::string> SimResctrlTelemetry::readInfo(const std::string& file) const
{
    if (file == "num_rmids") return std::to_string(m_monitoring.rmidsPerNode()) + "\n";
    std::string s;
    for (const char* e : kTelemetryEvents)
        s += std::string(e) + "\n";
    return s;
}

Result<std::string> SimResctrlTelemetry::read(const ResctrlGroup& g, unsigned package, const std::string& event) const
{
    std::size_t index = std::size(kTelemetryEvents);
    for (std::size_t i = 0; i < std::size(kTelemetryEvents); ++i)
        if (event == kTelemetryEvents[i]) index = i;
    if (index == std::size(kTelemetryEvents)) return errnoError(ENOENT, "no such file: " + event);
    std::vector<std::uint32_t> rmids { g.rmid };
    if (g.ctrl) // a CTRL_MON group reports the sum over itself and its MON groups, as for mon_L3_XX
        for (const auto& [n, m] : g.mon)
            rmids.push_back(m->rmid);
    double sum = 0;
    for (std::uint32_t rmid : rmids)
        if (auto it = m_telemetry.find({ rmid, package }); it != m_telemetry.end()) sum += it->second[index];
    char buf[64];
    if (index == kEnergy || index == kActivity) // fixed-point events print as decimals, integers as integers
        std::snprintf(buf, sizeof buf, "%.6f\n", sum);
    else
        std::snprintf(buf, sizeof buf, "%" PRIu64 "\n", static_cast<std::uint64_t>(sum));
    return std::string(buf);
}

} // namespace rdt::sim

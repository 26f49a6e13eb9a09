// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CacheSlice.h"
#include "SimConfig.h"
#include "SimCpuid.h"
#include "Workload.h"
#include "core/Result.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rdt::sim {

/// Where an access was satisfied (what the simulated PMU reports as the data source).
enum class HitLevel : std::uint8_t { L1 = 0, L2, L3, LocalDram, RemoteDram };
constexpr int kHitLevels = 5;
const char* hitLevelName(HitLevel level);

struct AccessResult {
    HitLevel level = HitLevel::L1;
    bool simulated = true; ///< false: the line is outside the sampled sets, level estimated from recent statistics
    std::uint32_t latencyCycles = 0; ///< load-to-use latency of that level (no queueing)
};

/// Per-thread counts, in real (unsampled) units: every simulated access counts S times.
struct ThreadStats {
    std::uint64_t accesses = 0;
    std::array<std::uint64_t, kHitLevels> byLevel {};
    std::uint64_t memReadBytes = 0, memWriteBytes = 0;
    double cycles = 0; ///< core cycles the thread ran
    /// Instructions retired, by the model's stated rule: each line touched is one memory instruction, and the
    /// non-memory work between touches (WorkloadSpec::computeCycles) retires one instruction per cycle.
    double instructions = 0;
    /// Cycles spent waiting on the memory hierarchy: an access's cost beyond its compute cycles (a latency over the
    /// workload's memory-level parallelism, or the bandwidth a line takes). What TMA calls Memory Bound.
    double memoryStallCycles = 0;
    double l3MissRatio() const
    {
        std::uint64_t l3 = byLevel[2] + byLevel[3] + byLevel[4];
        return l3 ? double(byLevel[3] + byLevel[4]) / double(l3) : 0.0;
    }
    std::uint64_t l3Misses() const { return byLevel[3] + byLevel[4]; }
};

struct SimThreadInfo {
    int tid = 0; ///< the simulated PID (what resctrl's tasks files list)
    std::string name;
    unsigned cpu = 0;
    WorkloadSpec spec;
    std::uint32_t taskClos = 0, taskRmid = 0; ///< the kernel's per-task closid/rmid (0 = use the CPU's)
    std::uint32_t clos = 0, rmid = 0; ///< what it currently runs with
    ThreadStats stats;
};

/// Per-RMID monitoring state of one L3 domain, in real bytes.
struct RmidCounters {
    std::int64_t occupancyLines = 0; ///< simulated lines resident (x S x line size = bytes)
    std::uint64_t totalBytes = 0; ///< memory reads + writebacks
    std::uint64_t localBytes = 0; ///< the part served by the local node
    // The same bytes by transaction type, for AMD's BMEC filters (SimMachine::setMbmEventConfig). The simulated
    // programs make no non-temporal writes and have no slow (CXL) memory, so those types stay at 0.
    std::uint64_t localReadBytes = 0;
    std::uint64_t remoteReadBytes = 0;
    std::uint64_t victimBytes = 0; ///< dirty victims written back to memory, local or remote
};

/// The simulated processor: cores with L1/L2, one L3 per socket or per CCX (cache domain), memory per socket, and the
/// RDT state the MSRs hold (PQR per CPU, CBMs, CDP enables, MBA delays, CBA levels). Thread-safe: every public member
/// takes mutex(), which is recursive so SimResctrlFs/SimMsrSpace/scenarios can call in while holding it.
class SimMachine {
public:
    static Result<std::unique_ptr<SimMachine>> create(SimCpuid cpuid, SimOptions options = {});
    ~SimMachine();
    SimMachine(const SimMachine&) = delete;
    SimMachine& operator=(const SimMachine&) = delete;

    const SimCpuid& cpuid() const { return m_cpuid; }
    const SimFeatures& features() const { return m_features; }
    const SimOptions& options() const { return m_options; }
    unsigned cpuCount() const { return m_options.topology.cpuCount(); }
    unsigned coreCount() const { return m_options.topology.sockets * m_options.topology.coresPerSocket; }
    unsigned l3DomainCount() const { return m_options.topology.l3Count(); }
    unsigned l3DomainOfCpu(unsigned cpu) const { return m_options.topology.l3Of(cpu); }
    unsigned l2DomainOfCpu(unsigned cpu) const { return m_options.topology.coreOf(cpu); }
    std::uint32_t sampling() const { return m_options.setSampling; }
    /// Accesses each simulated one stands for beyond set sampling right now: 1, or SimOptions::maxTimeScale once the
    /// machine is steady (TimeScale.h).
    std::uint32_t timeScale() const;
    std::recursive_mutex& mutex() const { return m_mutex; }

    // --- time -------------------------------------------------------------------------------------------
    std::uint64_t nowNs() const;
    /// Runs whole ticks until at least ns more simulated nanoseconds have passed.
    void advance(std::uint64_t ns);
    /// Called (with the mutex held) after every tick; SimResctrlFs uses it for its 1 s MBM overflow poll.
    int addTickListener(std::function<void(std::uint64_t nowNs)> fn);
    void removeTickListener(int id);

    // --- threads (workloads) ----------------------------------------------------------------------------
    Result<int> addThread(const std::string& name, unsigned cpu, const WorkloadSpec& spec);
    Status removeThread(int tid);
    Status setThreadCpu(int tid, unsigned cpu);
    Status setWorkload(int tid, const WorkloadSpec& spec);
    /// The kernel's task association (resctrl tasks file); 0 means "the CPU's default" (__resctrl_sched_in).
    Status setTaskAssociation(int tid, std::uint32_t clos, std::uint32_t rmid);
    std::vector<SimThreadInfo> threads() const;
    std::optional<SimThreadInfo> thread(int tid) const;
    std::optional<int> findThread(const std::string& name) const;

    // --- the cache model, for the simulated PMU ----------------------------------------------------------
    /// One access from cpu with the CLOS/RMID that cpu currently runs with; updates caches and counters.
    AccessResult access(unsigned cpu, std::uint64_t address, AccessKind kind);

    // --- RDT register state (raw, unchecked: SimMsrSpace applies the SDM's #GP rules) ---------------------
    struct Pqr {
        std::uint32_t clos = 0, rmid = 0;
    };
    Pqr pqr(unsigned cpu) const;
    void setPqr(unsigned cpu, Pqr value);
    std::uint32_t l3Mask(unsigned domain, std::uint32_t index) const;
    void setL3Mask(unsigned domain, std::uint32_t index, std::uint32_t cbm);
    std::uint32_t l2Mask(unsigned l2Domain, std::uint32_t index) const;
    void setL2Mask(unsigned l2Domain, std::uint32_t index, std::uint32_t cbm);
    bool l3Cdp(unsigned domain) const;
    void setL3Cdp(unsigned domain, bool on);
    bool l2Cdp(unsigned l2Domain) const;
    void setL2Cdp(unsigned l2Domain, bool on);
    /// The raw MBA control of (domain, clos): Intel's delay in percent, or on AMD (MbaCaps::absolute) the limit in
    /// eighths of a GB/s.
    std::uint32_t mbaDelay(unsigned domain, std::uint32_t clos) const;
    void setMbaDelay(unsigned domain, std::uint32_t clos, std::uint32_t delay);
    std::uint8_t cbaLevel(unsigned cpu, std::uint32_t clos) const;
    void setCbaLevel(unsigned cpu, std::uint32_t clos, std::uint8_t level);
    /// Reset values (SDM 20.19.5: masks all 1s, QOS_CFG 0; PQR 0; MBA/CBA 0).
    void resetRdtState();

    // --- monitoring ------------------------------------------------------------------------------------
    RmidCounters counters(unsigned domain, std::uint32_t rmid) const;
    std::uint64_t occupancyBytes(unsigned domain, std::uint32_t rmid) const;
    /// IA32_QM_CTR data for an event id (1 occupancy, 2 total, 3 local), in counter units, wrapped to the
    /// enumerated counter width for MBM; nullopt for an unsupported event/RMID (the Error bit).
    std::optional<std::uint64_t> counterUnits(unsigned domain, std::uint32_t rmid, std::uint32_t event) const;
    /// AMD BMEC (QOS_EVT_CFG): the memory transaction types the domain's MBM `event` (2 total, 3 local) counts, as
    /// the bits of the kernel's mbm_{total,local}_bytes_config (Documentation/filesystems/resctrl.rst: 0 local reads,
    /// 1 remote reads, 2/3 non-temporal writes, 4/5 slow-memory reads, 6 dirty victims); 0 = unfiltered (Intel:
    /// total = every read and writeback, local = the local node's). Counters read through the new filter at once:
    /// the caller (the resctrl emulation) clears them as the hardware does.
    void setMbmEventConfig(unsigned domain, std::uint32_t event, std::uint32_t transactions);
    /// How many times the MBM counter of (domain, rmid, event) has wrapped so far.
    std::uint64_t counterWraps(unsigned domain, std::uint32_t rmid, std::uint32_t event) const;
    /// Makes an RMID's data Unavailable (IA32_QM_CTR bit 62, 20.18.7) in a domain until simulated time untilNs.
    void setUnavailable(unsigned domain, std::uint32_t rmid, std::uint64_t untilNs);
    bool unavailable(unsigned domain, std::uint32_t rmid) const;

    /// Resident bytes of a domain's L3 per CLOS and per way: result[clos][way] (for the way heatmap).
    std::vector<std::vector<std::uint64_t>> occupancyByClosAndWay(unsigned domain) const;
    /// Resident L3 lines whose fill came from code (true) or data (false), per way: result[way].
    std::vector<std::uint64_t> occupancyByWay(unsigned domain, bool code) const;
    /// Ways a CBM allows: cbm_len bits over the cache's ways, ways/cbm_len ways per bit (the last bits take
    /// the remainder when ways is not a multiple), as way-partitioned parts map them (20.19.2).
    std::uint32_t waysOfL3Cbm(std::uint32_t cbm) const;
    std::uint32_t waysOfL2Cbm(std::uint32_t cbm) const;
    std::uint32_t l3Ways() const;
    /// Empties every cache (and zeroes occupancy); counters keep their totals.
    void flushCaches();

    /// Effective memory-bandwidth fraction a cpu's core gets from MBA and CBA together (1 = unthrottled).
    double throttleFraction(unsigned cpu) const;

private:
    // The views over Impl that hold the RDT registers, the monitoring counters and the cache contents.
    friend class SimRdtRegisters;
    friend class SimRmidMonitor;
    friend class SimCacheContents;

    SimMachine(SimCpuid cpuid, SimFeatures features, SimOptions options);
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    SimCpuid m_cpuid;
    SimFeatures m_features;
    SimOptions m_options;
    mutable std::recursive_mutex m_mutex;
};

} // namespace rdt::sim

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Schemata.h"
#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rdt {

enum class ResourceKind { Cache, Bandwidth };

/// One allocation resource as the backend enumerates it (resctrl info/<NAME>/, or CPUID.10H for MSRs).
struct ResourceCaps {
    std::string name; ///< schemata name: "L3", "L3CODE", "L3DATA", "L2", "L2CODE", "L2DATA", "MB", "SMBA", "CBA"
    ResourceKind kind = ResourceKind::Cache;
    unsigned numClosids = 0; ///< as enumerated for this resource (CDP already halved)
    std::vector<int> domains; ///< domain (cache) ids, ascending, possibly with gaps

    // Cache resources (CAT/CDP, SDM 20.19.4.2).
    std::uint64_t cbmMask = 0; ///< all valid bits (= 100 %)
    unsigned cbmBits = 0; ///< popcount(cbmMask)
    unsigned minCbmBits = 1;
    std::uint64_t shareableBits = 0; ///< bits also used by other agents (I/O, DDIO)
    bool sparseMasks = false; ///< non-contiguous CBMs allowed (CPUID.10H.0x:ECX[3] / info/<r>/sparse_masks)
    std::uint64_t bytesPerBit = 0; ///< cache bytes one CBM bit covers; 0 when unknown

    // Bandwidth resources (MBA, SDM 20.19.7).
    unsigned minBandwidth = 0; ///< percent (or MiBps in mba_MBps mode)
    unsigned bandwidthGran = 0;
    unsigned maxBandwidth = 100; ///< upper bound of a value (100 %, or the CBA max throttle level)
    bool delayLinear = true;
    bool mbpsMode = false; ///< resctrl mounted with -o mba_MBps: values are MiBps, any u32
    std::string throttleMode; ///< "max", "per-thread" or "" when not reported

    bool isCache() const { return kind == ResourceKind::Cache; }
    /// The default (unrestricted) value as schemata text: the full mask, "100", or "4294967295" (MBps).
    std::string defaultValue() const;
};

/// Monitoring capabilities (resctrl info/L3_MON, or CPUID.0FH for MSRs).
struct MonitorCaps {
    bool present = false;
    unsigned numRmids = 0;
    bool llcOccupancy = false;
    bool mbmTotal = false;
    bool mbmLocal = false;
    std::vector<std::string> features; ///< raw mon_features lines, unknown ones included
    std::vector<int> domains; ///< mon_L3_XX ids
    /// Width of the raw MBM counters the backend returns. resctrl returns 64-bit values the kernel already
    /// extended (it polls every second itself), so 64; MSRs: 24 + CPUID.0FH.01H:EAX[7:0] (20.18.5.2).
    unsigned counterWidth = 64;
    bool overflowBit = false; ///< IA32_QM_CTR bit 61 enumerated (CPUID.0FH.01H:EAX[8])
    std::uint64_t maxThresholdOccupancy = 0; ///< limbo threshold in bytes (info/L3_MON/max_threshold_occupancy)
};

/// Everything a backend can do on this machine.
struct Capabilities {
    std::vector<ResourceCaps> resources;
    MonitorCaps monitoring;
    bool cdpL3 = false; ///< L3CODE/L3DATA active
    bool cdpL2 = false;
    bool handlesTasks = true; ///< false for the MSR backend: it associates CPUs only (IA32_PQR_ASSOC is per CPU)
    /// Online CPU ids the backend can assign, ascending (the root group's cpus_list, or the online CPUs the MSR
    /// backend programs); empty when unknown.
    std::vector<unsigned> cpus;
    /// Max control groups incl. the default one: min(num_closids) over all resources (CLOSID 0 is the root's).
    unsigned maxControlGroups = 0;

    const ResourceCaps* resource(const std::string& name) const;
    bool hasAllocation() const { return !resources.empty(); }
};

/// A control group (CTRL_MON, owns a CLOS and an RMID) or a monitor group (MON, an RMID under a parent).
struct GroupInfo {
    std::string path; ///< relative to the root: "" default group, "p0", "p0/mon_groups/m1", "mon_groups/m1"
    std::string name; ///< last path component; "" for the default group
    bool isControl = true; ///< CTRL_MON (has schemata) vs MON group
    std::string parent; ///< control group path for MON groups
    std::string mode; ///< "shareable", "exclusive", ... ("" for MON groups or when unknown)
    int closid = -1; ///< when the backend knows it (MSR backend; resctrl only with -o debug)
    int rmid = -1;
};

/// One raw counter reading of one group in one monitoring domain. Values are raw (not deltas): the sampler
/// differences them. Error/Unavailable/Unassigned are flags (RdtSampleFlag), and the value is then 0.
struct CounterReading {
    int domain = 0;
    std::uint64_t occupancyBytes = 0;
    std::uint64_t mbmTotalRaw = 0; ///< counter value in bytes modulo 2^counterWidth x scale (see bytesPerUnit)
    std::uint64_t mbmLocalRaw = 0;
    bool mbmTotalOverflow = false; ///< IA32_QM_CTR bit 61 was set on this read
    bool mbmLocalOverflow = false;
    std::uint32_t flags = 0; ///< RdtSampleFlag bits
};

/// Counters of one group across its domains.
struct GroupCounters {
    std::string group;
    std::vector<CounterReading> domains;
    /// Bytes per raw MBM counter unit (1 for resctrl, the CPUID.0FH.01H:EBX upscaling factor for MSRs).
    std::uint64_t bytesPerUnit = 1;
};

/// The one interface above resctrl and MSRs (docs/ARCHITECTURE.md "The seams"; intel-cmt-cat's single operations
/// table): nothing above it knows which runs. Implementations serialise their own operations, so the sampler thread may
/// read counters while the GUI thread applies schemata.
class RdtBackend {
public:
    virtual ~RdtBackend() = default;

    virtual std::string name() const = 0; ///< "resctrl", "msr"
    virtual std::string describe() const = 0; ///< "resctrl at /sys/fs/resctrl", "MSRs via simulated MSR space"

    virtual Result<Capabilities> capabilities() = 0;

    virtual Result<std::vector<GroupInfo>> listGroups() = 0;
    /// A control group at the top level ("p0"). ENOSPC when CLOSIDs run out.
    virtual Status createControlGroup(const std::string& name) = 0;
    /// A monitor group under a control group ("" = default group) -> "<parent>/mon_groups/<name>".
    virtual Status createMonitorGroup(const std::string& parent, const std::string& name) = 0;
    virtual Status removeGroup(const std::string& path) = 0;

    /// Moves tasks into a group; the MSR backend refuses with a message (it cannot follow tasks).
    virtual Status assignTasks(const std::string& path, const std::vector<unsigned>& pids) = 0;
    virtual Status assignCpus(const std::string& path, const std::vector<unsigned>& cpus) = 0;
    virtual Result<std::vector<unsigned>> tasks(const std::string& path) = 0;
    virtual Result<std::vector<unsigned>> cpus(const std::string& path) = 0;

    virtual Result<Schemata> readSchemata(const std::string& path) = 0;
    /// Writes the given lines (all domains listed; partial lines allowed), each write newline-terminated,
    /// then reads back and fails when the read-back value differs. Errors carry info/last_cmd_status text.
    /// No rollback here: AllocationEngine makes multi-domain changes transactional.
    virtual Status applySchemata(const std::string& path, const Schemata& change) = 0;

    virtual Result<GroupCounters> readCounters(const std::string& path) = 0;
    /// Counters of many groups in one go (one lock, one pass): what the sampler calls each poll. The default
    /// loops over readCounters(); backends override it when they can do better.
    virtual std::vector<Result<GroupCounters>> readCountersMany(const std::vector<std::string>& paths)
    {
        std::vector<Result<GroupCounters>> out;
        out.reserve(paths.size());
        for (const auto& p : paths)
            out.push_back(readCounters(p));
        return out;
    }

    /// Other RDT users and anything odd found when opening (pqos COS<n> groups, PCM pcm* groups, cAdvisor ...).
    virtual std::vector<std::string> warnings() = 0;

    /// Starts a change transaction: from here until the matching endChange() every operation of this thread runs
    /// under one exclusive lock (resctrl: flock(LOCK_EX) on the root, the kernel documentation's "Locking between
    /// applications"; both: the backend's own mutex), so reading the current state, validating, writing, reading
    /// back and rolling back see no other writer in between. Nests. Use ChangeLock.
    virtual Status beginChange() { return {}; }
    virtual void endChange() { }
};

/// RAII form of beginChange()/endChange() (docs/SAFE-WRITES.md "Transactions").
class ChangeLock {
public:
    explicit ChangeLock(RdtBackend& backend)
        : m_backend(backend)
        , m_status(backend.beginChange())
    { }
    ~ChangeLock()
    {
        if (m_status.ok()) m_backend.endChange();
    }
    ChangeLock(const ChangeLock&) = delete;
    ChangeLock& operator=(const ChangeLock&) = delete;
    const Status& status() const { return m_status; }

private:
    RdtBackend& m_backend;
    Status m_status;
};

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "BandwidthUnit.h"
#include "InfoOrigins.h"
#include "ResctrlFeatures.h"
#include "Schemata.h"
#include "api/ControlDescription.h"
#include "core/Result.h"

#include <cerrno>
#include <cstdint>
#include <optional>
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
    BandwidthUnit bandwidthUnit = BandwidthUnit::Percent; ///< what a value means (BandwidthUnit.h)
    /// What the value does, from the schemata name (api::bandwidthControlOf): a cap, CBQRI's reserved blocks or
    /// weight, or a bound of a region triple (MB_REGION<n>_MIN/_OPT/_MAX).
    api::BandwidthRole role = api::BandwidthRole::Limit;
    int region = -1;
    /// CBQRI MB_MIN: the blocks all control groups together may reserve per domain (the sum of every group's value
    /// stays within it); 0 = no such budget. budgetSource names the file it was read from.
    std::uint64_t budget = 0;
    std::string budgetSource;

    // Self-describing controls (info/<dir>/resource_schemata/<name>/, the 2026 "Generic schema description" RFC).
    std::string infoDir; ///< the info/ directory this schemata line belongs to ("MB" for MB_REGION0_MIN)
    std::optional<api::ControlDescription> description; ///< this line's own description, when the kernel has one
    /// info/<dir>/mode of the RFC ("[legacy] native"): the mode in brackets and every mode offered; "" / empty when
    /// the file is absent (kernels before the RFC).
    std::string mode;
    std::vector<std::string> modes;

    // io_alloc (AMD SDCIAE, Linux 6.19): the cache portion I/O devices insert into, held by the highest CLOSID.
    std::string ioAlloc; ///< info/<r>/io_alloc: "enabled", "disabled", "not supported"; "" when the file is absent
    std::vector<DomainValue> ioAllocCbm; ///< info/<r>/io_alloc_cbm per domain (read when enabled)
    bool ioAllocEnabled() const { return ioAlloc == "enabled"; }

    /// Which values were not read from their info/ file (unknown or inferred, with the file named): the numbers
    /// above then hold what the rules work with (0, or the conservative default), never a value to show as read.
    InfoOrigins origins;

    bool isCache() const { return kind == ResourceKind::Cache; }
    /// Intel MBA's bounds from CPUID.10H.03H (SDM 20.19.7.1), as the kernel derives min_bandwidth and
    /// bandwidth_gran: the least bandwidth is 100 - the maximum delay percent, and linear MBA steps by that much.
    void setIntelMbaBounds(unsigned maxDelay, bool linear)
    {
        delayLinear = linear;
        minBandwidth = maxDelay < 100 ? 100 - maxDelay : 1;
        bandwidthGran = linear ? minBandwidth : 1;
        maxBandwidth = 100;
    }
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

    // BMEC (AMD, Linux 6.4): which memory transactions each MBM event counts, per domain
    // (info/L3_MON/mbm_{total,local}_bytes_config; bits in ResctrlFeatures.h bmecTransactionNames).
    std::vector<DomainValue> mbmTotalConfig, mbmLocalConfig;
    bool bmec() const { return !mbmTotalConfig.empty() || !mbmLocalConfig.empty(); }

    // Assignable counters (AMD ABMC, Linux 6.18): in "mbm_event" mode an MBM event counts only while a hardware
    // counter is assigned to it (per group: mbm_L3_assignments); otherwise it reads "Unassigned".
    std::string assignMode; ///< active mode of info/L3_MON/mbm_assign_mode ("mbm_event", "default"); "" = absent
    std::vector<std::string> assignModes;
    std::vector<DomainValue> numMbmCounters, availableMbmCounters;
    std::vector<std::pair<std::string, std::string>> eventFilters; ///< event_configs/<event>/event_filter
    int assignOnMkdir = -1; ///< info/L3_MON/mbm_assign_on_mkdir; -1 when absent
    bool counterAssignment() const { return assignMode == "mbm_event"; }

    /// Intel SNC (Linux 6.11): the sub-NUMA node ids under each mon_L3_XX (mon_sub_L3_YY); empty without SNC.
    std::vector<std::pair<int, std::vector<int>>> subDomains;
    /// SNC nodes sharing one L3 (1 without SNC): each CBM bit then covers 1/n of its normal size for a node.
    unsigned sncNodesPerL3() const;

    /// Values not read from info/L3_MON (num_rmids, mon_features, max_threshold_occupancy) or mon_data ("domains").
    InfoOrigins origins;
    /// mon_data missing: the L3 domains of the root schemata, shown as an inferred count; no counter can be read.
    std::vector<int> inferredDomains;
};

/// Per-group package telemetry (info/PERF_PKG_MON, Intel, Linux 7.0): energy and activity per package per RMID.
struct TelemetryCaps {
    bool present = false;
    unsigned numRmids = 0;
    std::vector<std::string> features; ///< mon_features: core_energy (J), activity (F), integer events
    std::vector<int> domains; ///< mon_PERF_PKG_XX ids (physical package ids)
    InfoOrigins origins; ///< num_rmids, mon_features when their files are missing
};

/// Everything a backend can do on this machine.
struct Capabilities {
    std::vector<ResourceCaps> resources;
    MonitorCaps monitoring;
    TelemetryCaps telemetry;
    bool cdpL3 = false; ///< L3CODE/L3DATA active
    bool cdpL2 = false;
    bool handlesTasks = true; ///< false for the MSR backend: it associates CPUs only (IA32_PQR_ASSOC is per CPU)
    /// Online CPU ids the backend can assign, ascending (the root group's cpus_list, or the online CPUs the MSR
    /// backend programs); empty when unknown.
    std::vector<unsigned> cpus;
    /// Max control groups incl. the default one: min(num_closids) over all resources (CLOSID 0 is the root's).
    unsigned maxControlGroups = 0;
    /// "max_control_groups" unknown (0 above) when no num_closids could be read, inferred when only some could.
    InfoOrigins origins;

    const ResourceCaps* resource(const std::string& name) const;
    /// Max monitor groups incl. the default one: every group takes an RMID of L3_MON and of PERF_PKG_MON, so the
    /// smaller num_rmids limits (0 = unknown).
    unsigned maxMonitorGroups() const;
    bool hasAllocation() const { return !resources.empty(); }
    /// Why the tree offers no bandwidth control when its shape says (Arm MPAM's driver hides MB under CDP: CDP on,
    /// total but no local bandwidth counter, no bandwidth resource; Documentation/arch/arm64/mpam.rst); "" otherwise.
    std::string bandwidthAbsentReason() const;
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
    int node = -1; ///< SNC: the sub-NUMA node (mon_sub_L3_YY) this reading covers; -1 = the whole L3 domain
};

/// One PERF_PKG_MON event file of one group in one package (rdt/Telemetry.h parses it).
struct TelemetryReading {
    int package = 0;
    std::string event;
    double value = 0;
    std::uint32_t flags = 0; ///< SampleTelemetryError / SampleTelemetryUnavailable; the value is then 0
};

/// Counters of one group across its domains.
struct GroupCounters {
    std::string group;
    std::vector<CounterReading> domains;
    std::vector<TelemetryReading> telemetry; ///< every mon_features event of every package; empty without PERF_PKG_MON
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
    /// Intel SNC (MonitorCaps::subDomains): read an L3 domain that has sub-NUMA nodes as one reading per node
    /// (CounterReading::node) instead of one for the whole L3, whose files are the sum of its nodes' (kernel
    /// Documentation/filesystems/resctrl.rst, "mon_data"). Off by default: sessions and the GUI keep one sample per L3;
    /// the metrics endpoint turns it on for its `node` label. Backends without SNC sub-domains ignore it.
    virtual void setSncNodeReadings(bool perNode) { (void)perNode; }
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

    /// Assignable counters (resctrl `mbm_event` mode, AMD ABMC): assigns (or frees) a hardware counter for `event`
    /// ("mbm_total_bytes", "mbm_local_bytes") of a group in `domain` (-1 = every domain) through the group's
    /// mbm_L3_assignments. Backends without assignable counters refuse with ENOTSUP.
    virtual Status assignCounter(const std::string& path, const std::string& event, int domain, bool assign)
    {
        (void)path, (void)event, (void)domain, (void)assign;
        return errnoError(ENOTSUP, "this backend has no assignable counters",
            "counter assignment needs resctrl with info/L3_MON/mbm_assign_mode in mbm_event mode");
    }
    /// BMEC (AMD): which memory transactions `event` counts in `domain` (-1 = every domain), a mask of the bits
    /// ResctrlFeatures.h names. The kernel clears every MBM counter of the domain: the next read is Unavailable.
    virtual Status configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions)
    {
        (void)event, (void)domain, (void)transactions;
        return errnoError(ENOTSUP, "this backend cannot configure MBM events",
            "BMEC needs resctrl on an AMD CPU that has it (info/L3_MON/mbm_total_bytes_config)");
    }
    /// The group's mbm_L3_assignments; ENOTSUP where there are none.
    virtual Result<std::vector<CounterAssignment>> counterAssignments(const std::string& path)
    {
        (void)path;
        return errnoError(ENOTSUP, "this backend has no assignable counters");
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

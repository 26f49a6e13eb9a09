// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrUndoLog.h"
#include "RdtBackend.h"
#include "platform/MsrSpace.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace rdt {

/// What the MSR backend needs from CPUID (filled from platform's CpuFeatures or by tests/simulator presets).
struct MsrRdtEnumeration {
    // Monitoring, CPUID.0FH (20.18.5).
    unsigned maxRmid = 0; ///< CPUID.0FH.01H:ECX (highest RMID)
    std::uint64_t upscalingFactor = 1; ///< CPUID.0FH.01H:EBX, bytes per counter unit
    unsigned mbmWidth = 24; ///< 24 + CPUID.0FH.01H:EAX[7:0]
    bool overflowBit = false; ///< CPUID.0FH.01H:EAX[8]
    bool llcOccupancy = false, mbmTotal = false, mbmLocal = false; ///< CPUID.0FH.01H:EDX[0..2]
    // L3 CAT / CDP, CPUID.10H.01H (20.19.4.2).
    bool l3Cat = false;
    unsigned l3CbmLength = 0; ///< EAX[4:0] + 1
    std::uint64_t l3Shareable = 0; ///< EBX
    bool l3Cdp = false; ///< ECX[2]
    bool l3Sparse = false; ///< ECX[3]
    unsigned l3MaxClos = 0; ///< EDX[15:0] (highest CLOS, 0-based)
    std::uint64_t l3BytesPerBit = 0; ///< from CPUID.04H; 0 when unknown
    // L2 CAT, CPUID.10H.02H.
    bool l2Cat = false;
    unsigned l2CbmLength = 0;
    std::uint64_t l2Shareable = 0;
    bool l2Cdp = false;
    bool l2Sparse = false;
    unsigned l2MaxClos = 0;
    // MBA, CPUID.10H.03H (20.19.7.1).
    bool mba = false;
    unsigned mbaMaxDelay = 0; ///< EAX[11:0] + 1 (MBA_MAX)
    bool mbaLinear = false; ///< ECX[2]
    unsigned mbaMaxClos = 0;
    // CBA, CPUID.10H.05H (20.19.8.2).
    bool cba = false;
    unsigned cbaMaxLevel = 0;
    unsigned cbaMaxClos = 0;
    // Topology: L3 (and L2) cache id of every CPU; index = CPU number (sysfs), -1 for an offline CPU.
    std::vector<int> l3IdOfCpu;
    std::vector<int> l2IdOfCpu;
};

/// RdtBackend over MSRs (DevMsr on /dev/cpu/N/msr, or SimMsrSpace), following the SDM's own protocol:
///  - groups are CLOS/RMID pairs the backend manages in memory (names are ours; the hardware has none);
///  - RMIDs are allocated with limbo: a freed RMID is not reused while its occupancy is above the threshold;
///  - IA32_PQR_ASSOC is per logical CPU (20.18.6, 20.19.6.6): this backend assigns CPUs, not tasks;
///  - IA32_QM_EVTSEL/IA32_QM_CTR pairs are used under one lock (20.18.7), data x upscaling factor;
///  - CDP enable/disable follows 20.19.6.2 (all masks to 1s, threads to CLOS0, then toggle QOS_CFG);
///  - MBA delays (20.19.7.2) and CBA packed levels (20.19.8.3).
/// It refuses to run while resctrl is mounted (the kernel owns the MSRs then; mixing both corrupts state).
class MsrBackend final : public RdtBackend {
public:
    MsrBackend(std::shared_ptr<MsrSpace> msrs, MsrRdtEnumeration enumeration);

    /// Refuses (EBUSY) when `resctrlMountedAt` is non-empty, naming it.
    static Result<std::unique_ptr<MsrBackend>> open(
        std::shared_ptr<MsrSpace> msrs, MsrRdtEnumeration enumeration, const std::string& resctrlMountedAt);

    std::string name() const override { return "msr"; }
    std::string describe() const override;
    Result<Capabilities> capabilities() override;
    Result<std::vector<GroupInfo>> listGroups() override;
    Status createControlGroup(const std::string& name) override;
    Status createMonitorGroup(const std::string& parent, const std::string& name) override;
    Status removeGroup(const std::string& path) override;
    Status assignTasks(const std::string& path, const std::vector<unsigned>& pids) override;
    Status assignCpus(const std::string& path, const std::vector<unsigned>& cpus) override;
    Result<std::vector<unsigned>> tasks(const std::string& path) override;
    Result<std::vector<unsigned>> cpus(const std::string& path) override;
    Result<Schemata> readSchemata(const std::string& path) override;
    Status applySchemata(const std::string& path, const Schemata& change) override;
    Result<GroupCounters> readCounters(const std::string& path) override;
    std::vector<std::string> warnings() override;
    /// The backend's mutex, held across the transaction (MSR writes have no file lock to share).
    Status beginChange() override
    {
        m_mutex.lock();
        return {};
    }
    void endChange() override { m_mutex.unlock(); }

    /// CDP on/off for L3 or L2 by the 20.19.6.2 sequence. Fails when groups beyond the CDP CLOS range exist.
    Status setCdp(const std::string& level, bool enable);
    /// Names the groups found in the hardware and brings back groups without CPUs from `file`
    /// (MsrStateFile.h), and writes every later group change to it. Without it the groups live in this process.
    Status attachStateFile(const std::string& file);
    /// CLOS no group owns that hold masks someone set: never handed out.
    const std::set<unsigned>& reservedClos() const { return m_reservedClos; }
    /// Limbo RMIDs waiting for their occupancy to drain (for tests and the explain panel).
    std::vector<unsigned> limboRmids() const;

    /// Raw QM_EVTSEL/QM_CTR read on a CPU of `domain`, under the lock; flags from bits 63/62, overflow bit 61.
    Result<std::uint64_t> readMonitor(
        int domain, unsigned rmid, std::uint32_t eventId, std::uint32_t* flags, bool* overflow);

private:
    struct Group {
        std::string path;
        bool isControl = true;
        std::string parent;
        unsigned clos = 0;
        unsigned rmid = 0;
        std::set<unsigned> cpus;
    };
    /// The in-memory half of a change, saved before it and put back when the MSR half is rolled back.
    struct TableState {
        std::vector<Group> groups;
        std::set<unsigned> freeRmids, limbo;
        bool cdpL3 = false, cdpL2 = false;
    };
    TableState saveTable() const { return { m_groups, m_freeRmids, m_limbo, m_cdpL3, m_cdpL2 }; }
    /// A step of a change failed: puts the table back, rolls the MSRs back (the failed one included) and says so.
    Error rollBack(Error e, MsrUndoLog& log, TableState saved);
    void adoptHardwareState();
    bool online(unsigned cpu) const; ///< l3IdOfCpu is -1 for offline CPUs
    void persist();
    Group* find(const std::string& path);
    Result<unsigned> allocateRmid();
    void releaseRmid(unsigned rmid);
    Status writeAssoc(unsigned cpu, MsrUndoLog& log);
    unsigned cpuOfDomain(int domain, bool l2) const;
    std::vector<int> domainsOf(const std::vector<int>& idOfCpu) const;
    Result<std::uint64_t> maskMsr(const std::string& resource, unsigned clos, int domain, std::uint32_t* msrOut);

    std::shared_ptr<MsrSpace> m_msrs;
    MsrRdtEnumeration m_enum;
    mutable std::recursive_mutex m_mutex; ///< also the 20.18.7 QM_EVTSEL/QM_CTR critical section
    std::vector<Group> m_groups; ///< [0] is the default group (CLOS0, RMID0)
    std::set<unsigned> m_freeRmids;
    std::set<unsigned> m_limbo;
    bool m_cdpL3 = false;
    bool m_cdpL2 = false;
    std::vector<std::string> m_warnings;
    std::set<unsigned> m_reservedClos;
    std::string m_stateFile; ///< empty: the table lives in this process only
};

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrAllocation.h"
#include "MsrGroupTable.h"
#include "MsrMonitor.h"
#include "MsrRdtEnumeration.h"
#include "MsrTablePersistence.h"
#include "MsrTopology.h"
#include "MsrUndoLog.h"
#include "RdtBackend.h"
#include "platform/MsrSpace.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace rdt {

/// RdtBackend over MSRs (DevMsr on /dev/cpu/N/msr, or SimMsrSpace), following the SDM's own protocol:
///  - groups are CLOS/RMID pairs the backend manages in memory (names are ours; the hardware has none);
///  - RMIDs are allocated with limbo: a freed RMID is not reused while its occupancy is above the threshold;
///  - IA32_PQR_ASSOC is per logical CPU (20.18.6, 20.19.6.6): this backend assigns CPUs, not tasks;
///  - IA32_QM_EVTSEL/IA32_QM_CTR pairs are used under one lock (20.18.7), data x upscaling factor;
///  - CDP enable/disable follows 20.19.6.2 (all masks to 1s, threads to CLOS0, then toggle QOS_CFG);
///  - MBA delays (20.19.7.2) and CBA packed levels (20.19.8.3).
/// It refuses to run while resctrl is mounted (the kernel owns the MSRs then; mixing both corrupts state).
/// This class manages the groups and their RMIDs and serialises everything under one mutex; the group table, its
/// persistence, monitoring and the allocation controls are each their own class.
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
    const std::set<unsigned>& reservedClos() const { return m_table.reservedClos; }
    /// Limbo RMIDs waiting for their occupancy to drain (for tests and the explain panel).
    std::vector<unsigned> limboRmids() const;

    /// Raw QM_EVTSEL/QM_CTR read on a CPU of `domain`, under the lock; flags from bits 63/62, overflow bit 61.
    Result<std::uint64_t> readMonitor(
        int domain, unsigned rmid, std::uint32_t eventId, std::uint32_t* flags, bool* overflow);

private:
    Result<unsigned> allocateRmid();

    std::shared_ptr<MsrSpace> m_msrs;
    MsrRdtEnumeration m_enum;
    mutable std::recursive_mutex m_mutex; ///< also the 20.18.7 QM_EVTSEL/QM_CTR critical section
    MsrTopology m_topology;
    MsrGroupTable m_table;
    MsrTablePersistence m_persistence;
    MsrMonitor m_monitor;
    MsrAllocation m_allocation;
};

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CpuMask.h"
#include "ResctrlMountOptions.h"
#include "SimCmdStatus.h"
#include "SimMachine.h"
#include "SimMbmCounters.h"
#include "SimResctrlAmdMonitoring.h"
#include "SimResctrlControls.h"
#include "SimResctrlGroups.h"
#include "SimResctrlInfo.h"
#include "SimResctrlMonitoring.h"
#include "SimResctrlTelemetry.h"
#include "SimResctrlTypes.h"
#include "core/Fs.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rdt::sim {

/// The Linux resctrl filesystem over the simulated machine, behaving as the kernel does (fs/resctrl/rdtgroup.c
/// and ctrlmondata.c, as summarised in docs/RESCTRL.md): info/ files, the root group owning CLOSID 0 and RMID 0,
/// mkdir/rmdir of control and monitor groups, tasks (simulated PIDs = SimMachine thread ids), cpus, cpus_list,
/// schemata with the kernel's exact info/last_cmd_status texts, mode, size, and mon_data from the simulated
/// counters (MBM as cumulative bytes that the "kernel" itself wrap-corrects by reading the counters at least every
/// second, as mbm_handle_overflow does). Writes go to the machine's MSR state the way the kernel programs MSRs.
/// Thread-safe: every call takes the machine's mutex. Unmounting (destruction) resets all controls.
/// On an AMD processor it speaks the kernel's AMD dialect: MB in 1/8 GB/s (2048 = unlimited) with padded values,
/// sparse masks, BMEC (mbm_{total,local}_bytes_config) and assignable counters (SimResctrlAmdMonitoring).
/// With SNC (SimTopology::sncNodes) it shows mon_L3_XX/mon_sub_L3_YY per node, RMIDs divided by the nodes.
/// With SimOptions::pkgTelemetry it adds PERF_PKG_MON: info/PERF_PKG_MON and mon_PERF_PKG_XX per group and package,
/// counts from a stated synthetic energy model (SimResctrlTelemetry).
/// Not emulated: pseudo-locking, mba_MBps, SMBA, io_alloc, rename(2), PID 0 (the writer is not simulated).
/// This class is the file tree (paths, directory listings, which part serves a read or write, mkdir/rmdir) and the
/// mount; groups, controls, monitoring, AMD's dialect, telemetry and info/ are each their own class.
class SimResctrlFs final : public Fs {
public:
    static Result<std::unique_ptr<SimResctrlFs>> mount(SimMachine& machine, ResctrlMountOptions options = {});
    ~SimResctrlFs() override;
    SimResctrlFs(const SimResctrlFs&) = delete;
    SimResctrlFs& operator=(const SimResctrlFs&) = delete;

    Result<std::string> read(const std::string& path) override;
    Status write(const std::string& path, const std::string& data) override;
    Status mkdir(const std::string& path) override;
    Status rmdir(const std::string& path) override;
    Result<std::vector<std::string>> list(const std::string& path) override;
    bool exists(const std::string& path) override;
    bool isDirectory(const std::string& path) override;
    Result<UniqueFd> openForPolling(const std::string& path) override;
    bool taskExists(unsigned pid) override;
    Status lock(bool exclusive) override;
    void unlock() override;
    std::string describe() const override;

    SimMachine& machine() { return m_machine; }
    const ResctrlMountOptions& options() const { return m_options; }

    using Group = ResctrlGroup;
    using SchemaKind = rdt::sim::SchemaKind;
    using CdpType = rdt::sim::CdpType;
    using Schema = rdt::sim::Schema;

private:
    SimResctrlFs(SimMachine& machine, ResctrlMountOptions options);

    std::vector<std::string> groupFiles(const ResctrlGroup& g) const;
    ResctrlPath resolve(const std::string& path);
    Result<std::string> readGroupFile(ResctrlGroup& g, const std::string& file);
    void onTick(std::uint64_t nowNs);

    SimMachine& m_machine;
    ResctrlMountOptions m_options;
    SimCmdStatus m_status;
    SimResctrlGroups m_groups;
    SimResctrlControls m_controls;
    SimMbmCounters m_mbm;
    SimResctrlAmdMonitoring m_amd;
    SimResctrlMonitoring m_monitoring;
    SimResctrlTelemetry m_telemetry;
    SimResctrlInfo m_info;
    int m_listener = 0;
    int m_locks = 0;
};

} // namespace rdt::sim

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimMachine.h"
#include "core/Fs.h"

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace rdt::sim {

/// The L3_MON event files in mon_features order (resctrl.rst "mon_features").
inline constexpr const char* kL3MonEvents[3] = { "llc_occupancy", "mbm_total_bytes", "mbm_local_bytes" };

/// Mount options of the emulated resctrl (`mount -t resctrl -o cdp,cdpl2`).
struct ResctrlMountOptions {
    bool cdp = false; ///< L3 code/data prioritization: L3CODE/L3DATA schemata, half the CLOSIDs
    bool cdpl2 = false; ///< the same for L2
    /// Not a mount option but a kernel quirk: min_cbm_bits is 1 on current parts and 2 on Haswell servers
    /// (cache_alloc_hsw_probe); lessons set it to show "Need at least %d bits in the mask".
    unsigned minCbmBits = 1;
    /// Whether a PID that is no simulated thread names a task of the host, or empty (the default) when only the
    /// simulated threads are tasks. Set when the emulation is served to host processes (capture/simfs): a host
    /// tool writes its own PIDs to a group's tasks, and resctrl accepts any existing task
    /// (Documentation/filesystems/resctrl.rst "tasks"). Such tasks are recorded with their CLOSID and RMID, listed
    /// back while they exist, and run nothing on the simulated machine. A simulated thread id wins over a host PID.
    std::function<bool(unsigned pid)> hostTaskExists;
    /// Every task of the host (thread ids), or empty. Set with hostTaskExists: the default group's tasks file then
    /// lists the host's tasks that no group took, since every task starts in the default group (resctrl.rst
    /// "Resource alloc and monitor groups"), and tools look their own tasks up there.
    std::function<std::vector<unsigned>()> listHostTasks;
};

/// The Linux resctrl filesystem over the simulated machine, behaving as the kernel does (fs/resctrl/rdtgroup.c
/// and ctrlmondata.c, as summarised in docs/RESCTRL.md): info/ files, the root group owning CLOSID 0 and RMID 0,
/// mkdir/rmdir of control and monitor groups, tasks (simulated PIDs = SimMachine thread ids), cpus, cpus_list,
/// schemata with the kernel's exact info/last_cmd_status texts, mode, size, and mon_data from the simulated
/// counters (MBM as cumulative bytes that the "kernel" itself wrap-corrects by reading the counters at least every
/// second, as mbm_handle_overflow does). Writes go to the machine's MSR state the way the kernel programs MSRs.
/// Thread-safe: every call takes the machine's mutex. Unmounting (destruction) resets all controls.
/// On an AMD processor it speaks the kernel's AMD dialect: MB in 1/8 GB/s (2048 = unlimited) with padded values,
/// sparse masks, BMEC (mbm_{total,local}_bytes_config) and assignable counters (ResctrlAmd.cpp).
/// With SNC (SimTopology::sncNodes) it shows mon_L3_XX/mon_sub_L3_YY per node, RMIDs divided by the nodes.
/// With SimOptions::pkgTelemetry it adds PERF_PKG_MON: info/PERF_PKG_MON and mon_PERF_PKG_XX per group and package,
/// counts from a stated synthetic energy model (ResctrlTelemetry.cpp).
/// Not emulated: pseudo-locking, mba_MBps, SMBA, io_alloc, rename(2), PID 0 (the writer is not simulated).
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

    struct Group {
        std::string name;
        bool ctrl = true;
        std::uint32_t closid = 0, rmid = 0;
        Group* parent = nullptr; ///< MON groups: their CTRL_MON group
        std::vector<bool> cpus;
        std::string mode = "shareable";
        std::map<std::string, std::unique_ptr<Group>> mon;
    };
    enum class SchemaKind { L3, L2, MB };
    enum class CdpType { None, Code, Data };
    struct Schema {
        std::string name;
        SchemaKind kind;
        CdpType type;
        std::uint32_t numClosid;
    };

private:
    SimResctrlFs(SimMachine& machine, ResctrlMountOptions options);

    // Paths
    struct Resolved {
        enum Kind {
            None,
            Root,
            InfoDir,
            InfoFile,
            GroupDir,
            GroupFile,
            MonGroupsDir,
            MonDataDir,
            MonDomainDir,
            MonFile
        };
        Kind kind = None;
        Group* group = nullptr;
        std::string info; ///< info sub-dir ("" for info/ itself)
        std::string file;
        int domain = -1;
        int node = -1; ///< SNC: the node of a mon_sub_L3_YY directory, within its domain (-1: the whole L3)
        bool package = false; ///< domain is a mon_PERF_PKG_XX package id, not an L3 id
    };
    Resolved resolve(const std::string& path);
    std::vector<std::string> groupFiles(const Group& g) const;
    std::vector<std::string> infoDirs() const;
    std::vector<std::string> infoFiles(const std::string& dir) const;

    // Files (SimResctrlFs.cpp)
    Result<std::string> readInfo(const std::string& dir, const std::string& file);
    Result<std::string> readGroupFile(Group& g, const std::string& file);
    Result<std::string> readMon(Group& g, int domain, int node, const std::string& event);
    // SNC (ResctrlMonitoring.cpp): each logical RMID counts as one hardware RMID per node.
    unsigned sncNodes() const { return std::max(1u, m_machine.options().topology.sncNodes); }
    std::uint32_t rmidsPerNode() const { return (m_machine.features().mon.l3MaxRmid + 1) / sncNodes(); }
    /// The hardware RMIDs of `rmid` in node `node` of a domain, or in every node (node -1).
    std::vector<std::uint32_t> physicalRmids(std::uint32_t rmid, int node = -1) const;
    std::string subDomainName(unsigned domain, unsigned node) const;
    Status writeTasks(Group& g, const std::string& data);
    Status writeCpus(Group& g, const std::string& data, bool list);
    std::vector<bool> cpusOf(const Group& g) const { return g.cpus; }
    void applyCpuDefaults(const std::vector<bool>& cpus);

    // Controls (ResctrlControls.cpp)
    std::string formatSchemata(const Group& g, bool size) const;
    Status writeSchemata(Group& g, const std::string& data);
    Status writeMode(Group& g, const std::string& data);
    std::string bitUsage(const Schema& s) const;
    std::uint32_t ctrlValue(const Schema& s, unsigned domain, std::uint32_t closid) const;
    void setCtrlValue(const Schema& s, unsigned domain, std::uint32_t closid, std::uint32_t value);
    bool cbmOverlaps(const Schema& s, unsigned domain, std::uint32_t cbm, std::uint32_t closid, bool exclusive) const;
    Status initAllocation(Group& g);
    const CatCaps& catOf(const Schema& s) const;
    unsigned domainCount(const Schema& s) const;
    std::string modeOfClosid(std::uint32_t closid) const;

    // AMD monitoring dialect (ResctrlAmd.cpp)
    bool abmc() const { return monitoring() && m_machine.features().amdMon.abmcCounters > 0; }
    bool counterMode() const { return abmc() && m_assignMode == "mbm_event"; }
    bool bmecFiles() const { return monitoring() && m_machine.features().amdMon.bmec && !counterMode(); }
    void initAmdMonitoring();
    std::vector<std::string> amdMonInfoFiles() const;
    Result<std::string> readAmdMonInfo(const std::string& dir, const std::string& file);
    Status writeAmdMonInfo(const std::string& file, const std::string& data);
    unsigned availableCounters(unsigned domain) const;
    /// Whether (domain, rmid, event) counts: always outside mbm_event mode and for llc_occupancy.
    bool counterAssigned(unsigned domain, std::uint32_t rmid, std::uint32_t event) const;
    Status assignCounter(unsigned domain, std::uint32_t rmid, std::uint32_t event);
    void assignCounters(std::uint32_t rmid); ///< both MBM events in every domain, as counters last
    void releaseCounters(std::uint32_t rmid);
    std::string readAssignments(const Group& g) const;
    Status writeAssignments(Group& g, const std::string& data);

    // PERF_PKG_MON telemetry (ResctrlTelemetry.cpp)
    bool telemetry() const { return monitoring() && m_machine.options().pkgTelemetry; }
    static std::vector<std::string> telemetryEvents();
    static std::string packageDirName(unsigned package); ///< "mon_PERF_PKG_01"
    /// c[at] below a group's mon_data is a mon_PERF_PKG_XX (and maybe an event file in it): fills r, true.
    bool resolveTelemetry(const std::vector<std::string>& c, std::size_t at, Resolved& r) const;
    void accumulateTelemetry(std::uint64_t nowNs);
    Result<std::string> readTelemetryInfo(const std::string& file) const;
    Result<std::string> readTelemetry(const Group& g, unsigned package, const std::string& event) const;

    // Groups and IDs
    Result<std::uint32_t> allocClosid();
    Result<std::uint32_t> allocRmid();
    void freeRmid(std::uint32_t rmid);
    void resetMbmState(std::uint32_t rmid);
    void pollMbm(); ///< mbm_handle_overflow
    void checkLimbo(); ///< cqm_handle_limbo
    void onTick(std::uint64_t nowNs);
    std::vector<Group*> allGroups();
    std::uint32_t closidsSupported() const;
    void setStatus(const std::string& line) { m_status += line + "\n"; }
    void clearStatus() { m_status.clear(); }
    bool monitoring() const { return m_machine.features().mon.present; }
    bool allocation() const { return !m_schemas.empty(); }

    SimMachine& m_machine;
    ResctrlMountOptions m_options;
    std::vector<Schema> m_schemas;
    Group m_root;
    std::map<std::string, std::unique_ptr<Group>> m_ctrl;
    std::vector<bool> m_closidUsed;
    std::deque<std::uint32_t> m_freeRmids;
    std::vector<std::uint32_t> m_limbo;
    std::string m_status;
    struct HostTask {
        std::uint32_t closid = 0, rmid = 0;
    };
    std::map<unsigned, HostTask> m_hostTasks; ///< host PIDs written to a tasks file (ResctrlMountOptions)
    /// Forgets host tasks that have exited, as the kernel's lists drop exited tasks.
    void pruneHostTasks();
    std::uint64_t m_threshold = 0; ///< max_threshold_occupancy, bytes
    struct MbmState {
        std::uint64_t prevMsr = 0, chunks = 0;
    };
    std::map<std::tuple<unsigned, std::uint32_t, std::uint32_t>, MbmState> m_mbm; ///< (domain, rmid, event)
    std::uint64_t m_lastPollNs = 0, m_lastLimboNs = 0;
    int m_listener = 0;
    int m_locks = 0;
    // AMD: counter assignment mode, the assigned (domain, rmid, event) counters, BMEC configurations per domain
    // (total, local) and the (domain, rmid) pairs cleared by a BMEC write and not read since.
    std::string m_assignMode = "default";
    bool m_assignOnMkdir = true;
    std::set<std::tuple<unsigned, std::uint32_t, std::uint32_t>> m_counters;
    std::vector<std::uint32_t> m_bmecConfig[2];
    std::set<std::pair<unsigned, std::uint32_t>> m_bmecCleared;
    // PERF_PKG_MON: (logical RMID, package) -> cumulative event values; each thread's stats at the last accumulation
    std::map<std::pair<std::uint32_t, unsigned>, std::array<double, 6>> m_telemetry;
    std::map<int, ThreadStats> m_telemetryLast;
    std::uint64_t m_lastTelemetryNs = 0;
};

/// Formats a CPU set as the kernel's %*pb (hex, 32-bit groups separated by commas) and %*pbl (ranges).
std::string formatCpuMask(const std::vector<bool>& cpus);
std::string formatCpuList(const std::vector<bool>& cpus);
/// Parses either form (bitmap_parse / bitmap_parselist); false on bad input or a CPU >= count.
bool parseCpuMask(const std::string& text, unsigned count, std::vector<bool>& out);
bool parseCpuList(const std::string& text, unsigned count, std::vector<bool>& out);

} // namespace rdt::sim

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "ResctrlCapabilityReader.h"
#include "ResctrlCounterReader.h"
#include "ResctrlGroups.h"
#include "ResctrlMbmEvents.h"
#include "ResctrlMembership.h"
#include "ResctrlSchemataEditor.h"
#include "ResctrlTree.h"
#include "core/Fs.h"

#include <memory>
#include <mutex>

namespace rdt {

/// RdtBackend over the Linux resctrl file interface through the Fs seam: PosixFs on /sys/fs/resctrl (or a
/// copied fixture tree), SimResctrlFs for the simulated kernel. Interface facts: the kernel's
/// Documentation/filesystems/resctrl.rst (KDOC) and docs/RESCTRL.md. A facade: each concept is its own class
/// (capabilities, groups, membership, schemata, counters, MBM events over one ResctrlTree); this one serialises
/// them between the sampler thread and editors, and tells the kept capabilities what a change made stale.
class ResctrlBackend final : public RdtBackend {
public:
    explicit ResctrlBackend(std::shared_ptr<Fs> fs);

    /// Checks the tree looks like resctrl (schemata or info/), takes nothing else.
    static Result<std::unique_ptr<ResctrlBackend>> open(std::shared_ptr<Fs> fs);

    std::string name() const override { return "resctrl"; }
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
    std::vector<Result<GroupCounters>> readCountersMany(const std::vector<std::string>& paths) override;
    void setSncNodeReadings(bool perNode) override;
    Status assignCounter(const std::string& path, const std::string& event, int domain, bool assign) override;
    Result<std::vector<CounterAssignment>> counterAssignments(const std::string& path) override;
    Status configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions) override;
    std::vector<std::string> warnings() override;
    Status beginChange() override;
    void endChange() override;

    Fs& fs() { return m_tree.fs(); }

private:
    std::recursive_mutex m_mutex; ///< serialises Fs use between the sampler thread and editors
    ResctrlTree m_tree;
    ResctrlCapabilityReader m_capabilities;
    ResctrlGroups m_groups;
    ResctrlMembership m_membership;
    ResctrlSchemataEditor m_schemata;
    ResctrlCounterReader m_counters;
    ResctrlMbmEvents m_mbmEvents;
};

/// Scans a resctrl tree for other RDT users (docs/RESCTRL.md): pqos `COS<n>` control groups, PCM `pcm*`
/// monitor groups, cAdvisor `cadvisor-*` / `cadvisor` groups. One human line per finding.
std::vector<std::string> detectOtherRdtUsers(Fs& fs);

} // namespace rdt

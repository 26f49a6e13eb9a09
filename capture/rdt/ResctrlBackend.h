// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "core/Fs.h"
#include "core/UniqueFd.h"

#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace rdt {

/// RdtBackend over the Linux resctrl file interface through the Fs seam: PosixFs on /sys/fs/resctrl (or a
/// copied fixture tree), SimResctrlFs for the simulated kernel. Interface facts: the kernel's
/// Documentation/filesystems/resctrl.rst (KDOC) and docs/RESCTRL.md.
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

    Fs& fs() { return *m_fs; }

private:
    void forgetCountersOnMkdirRmdir(); ///< drops cached capabilities whose free-counter counts mkdir/rmdir change
    Result<Capabilities> loadCapabilities();
    std::vector<unsigned> onlineCpusOfTree();
    /// Writes `data` (newline added when missing) and turns a failure into an Error that carries
    /// info/last_cmd_status. Caller holds the root flock.
    Status writeCommand(const std::string& path, std::string data);
    std::string treeCopyAdvice(const std::string& file) const;
    std::string lastCmdStatus();
    /// The path is a valid group path (GroupNames.h) naming an existing group (a control group when asked).
    Status requireGroup(const std::string& path, bool mustBeControl);
    std::string join(const std::string& group, const std::string& file) const;
    Result<GroupCounters> readCountersLocked(const std::string& path, const Capabilities& caps);
    /// The kept-open fds of a group's counter files (Fs::openForPolling: kernfs regenerates seq_file content on a
    /// pread at offset 0, so one open per file serves every poll); null when the Fs has none, and for the groups
    /// beyond kKeptFdShare of the descriptor limit (their files are opened for each read: any number of groups
    /// and domains polls with a bounded number of descriptors).
    std::vector<UniqueFd>* counterFds(const std::string& group, const Capabilities& caps);
    void dropCounterFds(const std::string& group);

    std::shared_ptr<Fs> m_fs;
    std::recursive_mutex m_mutex; ///< serialises Fs use between the sampler thread and editors
    int m_changeDepth = 0; ///< nesting of beginChange(); the root flock is held exclusively while > 0
    std::optional<Capabilities> m_caps;
    std::vector<std::string> m_capWarnings; ///< what loadCapabilities could not read, said by warnings()
    bool m_pollFds = true; ///< false once the Fs said it has no descriptors (ENOTSUP)
    bool m_sncNodes = false; ///< setSncNodeReadings: SNC domains read per mon_sub_L3_YY
    /// Kept-open mon_data fds per group: [domain index * 3 + event] (occupancy, total, local); -1 = use the Fs.
    std::unordered_map<std::string, std::vector<UniqueFd>> m_counterFds;
    std::size_t m_keptFds = 0; ///< the descriptors m_counterFds holds
};

/// Scans a resctrl tree for other RDT users (docs/RESCTRL.md): pqos `COS<n>` control groups, PCM `pcm*`
/// monitor groups, cAdvisor `cadvisor-*` / `cadvisor` groups. One human line per finding.
std::vector<std::string> detectOtherRdtUsers(Fs& fs);

} // namespace rdt

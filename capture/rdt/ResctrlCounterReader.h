// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "ResctrlTree.h"
#include "core/UniqueFd.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace rdt {

/// The counters of resctrl groups: their mon_data files (KDOC "Reading monitoring data") read under one shared root
/// lock per poll, through kept-open descriptors the Fs hands out (Fs::openForPolling) where it has them, each
/// file's "Error" / "Unavailable" / "Unassigned" turned into a sample flag. Callers hold ResctrlBackend's mutex.
class ResctrlCounterReader {
public:
    explicit ResctrlCounterReader(ResctrlTree& tree);

    /// One result per path; every one is the capabilities' error when they could not be read.
    std::vector<Result<GroupCounters>> read(const std::vector<std::string>& paths, const Result<Capabilities>& caps);
    /// SNC domains read per mon_sub_L3_YY.
    void setSncNodeReadings(bool perNode) { m_sncNodes = perNode; }
    /// Closes the kept descriptors of a group and of the groups under it (it is being removed).
    void forgetGroupTree(const std::string& path);

private:
    Result<GroupCounters> readLocked(const std::string& path, const Capabilities& caps);
    /// The kept-open fds of a group's counter files (Fs::openForPolling: kernfs regenerates seq_file content on a
    /// pread at offset 0, so one open per file serves every poll); null when the Fs has none, and for the groups
    /// beyond kKeptFdShare of the descriptor limit (their files are opened for each read: any number of groups
    /// and domains polls with a bounded number of descriptors).
    std::vector<UniqueFd>* counterFds(const std::string& group, const Capabilities& caps);
    void dropCounterFds(const std::string& group);

    ResctrlTree& m_tree;
    bool m_pollFds = true; ///< false once the Fs said it has no descriptors (ENOTSUP)
    bool m_sncNodes = false;
    /// Kept-open mon_data fds per group: [domain index * 3 + event] (occupancy, total, local); -1 = use the Fs.
    std::unordered_map<std::string, std::vector<UniqueFd>> m_counterFds;
    std::size_t m_keptFds = 0; ///< the descriptors m_counterFds holds
};

} // namespace rdt

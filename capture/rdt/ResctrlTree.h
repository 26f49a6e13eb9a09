// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Fs.h"
#include "core/Result.h"

#include <memory>
#include <string>

namespace rdt {

/// One resctrl mount seen through the Fs seam, as every part of ResctrlBackend needs it: where a group's files are,
/// whether a path names a group, how a command write failed (info/last_cmd_status, a tree copy's missing files),
/// and the root flock a change transaction holds (Documentation/filesystems/resctrl.rst, KDOC).
class ResctrlTree {
public:
    explicit ResctrlTree(std::shared_ptr<Fs> fs);

    Fs& fs() const { return *m_fs; }
    std::string describe() const { return m_fs->describe(); }
    std::string join(const std::string& group, const std::string& file) const;
    /// The path is a valid group path (GroupNames.h) naming an existing group (a control group when asked).
    Status requireGroup(const std::string& path, bool mustBeControl);
    /// Writes `data` (newline added when missing) and turns a failure into an Error that carries
    /// info/last_cmd_status. Caller holds the root flock.
    Status writeCommand(const std::string& path, std::string data);
    std::string treeCopyAdvice(const std::string& file) const;
    std::string lastCmdStatus();

    /// Takes the root flock exclusively for a transaction (nested calls count); the caller serialises threads.
    Status beginChange();
    void endChange();
    /// Nesting of beginChange(): RootLock takes nothing while a transaction holds the lock.
    int changeDepth() const { return m_changeDepth; }

private:
    std::shared_ptr<Fs> m_fs;
    int m_changeDepth = 0;
};

} // namespace rdt

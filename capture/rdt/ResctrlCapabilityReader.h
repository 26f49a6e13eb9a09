// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "ResctrlTree.h"

#include <optional>
#include <string>
#include <vector>

namespace rdt {

/// What info/ and the root group of a resctrl tree say the machine can do (KDOC "Info directory"), read once and
/// kept until a change the kernel reflects there (counter assignment, event configuration, mkdir/rmdir in
/// mbm_event mode) makes it stale. What could not be read is marked unknown and said in warnings().
/// Callers hold ResctrlBackend's mutex.
class ResctrlCapabilityReader {
public:
    explicit ResctrlCapabilityReader(ResctrlTree& tree);

    /// The kept capabilities, read first when there are none.
    Result<Capabilities> get();
    /// Reads again on the next get().
    void forget() { m_caps.reset(); }
    /// Drops kept capabilities whose free-counter counts mkdir/rmdir change.
    void forgetCountersOnMkdirRmdir();
    /// What the last read could not read.
    const std::vector<std::string>& warnings() const { return m_warnings; }

private:
    Result<Capabilities> load();
    std::vector<unsigned> onlineCpusOfTree();

    ResctrlTree& m_tree;
    std::optional<Capabilities> m_caps;
    std::vector<std::string> m_warnings;
};

} // namespace rdt

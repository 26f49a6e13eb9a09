// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrGroupTable.h"
#include "MsrRdtEnumeration.h"
#include "MsrTopology.h"
#include "platform/MsrSpace.h"

#include <string>
#include <vector>

namespace rdt {

/// The MSR backend's groups beyond one process (docs/SAFE-WRITES.md, "MSR state between runs"): rebuilt from
/// IA32_PQR_ASSOC and the mask MSRs when the backend opens, named from the state file (MsrStateFile.h), and every
/// later change written back to it. What it found or could not write is said in warnings().
class MsrTablePersistence {
public:
    MsrTablePersistence(
        MsrSpace& msrs, const MsrRdtEnumeration& enumeration, const MsrTopology& topology, MsrGroupTable& table);

    /// Groups found in the hardware, named by their numbers; CLOS with masks but no CPU reserved.
    void adoptHardwareState();
    /// Names the adopted groups from `file`, brings back groups without CPUs, and persists to it from now on.
    Status attachStateFile(const std::string& file);
    /// Writes the table to the state file, when there is one.
    void persist();
    const std::vector<std::string>& warnings() const { return m_warnings; }

private:
    MsrSpace& m_msrs;
    const MsrRdtEnumeration& m_enum;
    const MsrTopology& m_topology;
    MsrGroupTable& m_table;
    std::vector<std::string> m_warnings;
    std::string m_stateFile; ///< empty: the table lives in this process only
};

} // namespace rdt

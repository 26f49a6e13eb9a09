// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ResctrlMountOptions.h"
#include "SimCmdStatus.h"
#include "core/Result.h"

#include <string>
#include <vector>

namespace rdt::sim {

class SimMachine;
class SimResctrlAmdMonitoring;
class SimResctrlControls;
class SimResctrlMonitoring;
class SimResctrlTelemetry;

/// The emulated kernel's info/ directory (fs/resctrl/rdtgroup.c res_common_files): which resource directories it
/// lists, which files each has, what they read, and the few that accept writes.
class SimResctrlInfo {
public:
    SimResctrlInfo(SimMachine& machine, const ResctrlMountOptions& options, const SimCmdStatus& status,
        const SimResctrlControls& controls, SimResctrlMonitoring& monitoring, SimResctrlAmdMonitoring& amd,
        const SimResctrlTelemetry& telemetry);

    std::vector<std::string> dirs() const;
    std::vector<std::string> files(const std::string& dir) const;
    /// info/<dir>/<file>; dir "" is info/ itself (last_cmd_status).
    Result<std::string> read(const std::string& dir, const std::string& file);
    /// A write to info/<dir>/<file>, named `path` in errors.
    Status write(const std::string& path, const std::string& dir, const std::string& file, const std::string& data);

private:
    SimMachine& m_machine;
    const ResctrlMountOptions& m_options;
    const SimCmdStatus& m_status;
    const SimResctrlControls& m_controls;
    SimResctrlMonitoring& m_monitoring;
    SimResctrlAmdMonitoring& m_amd;
    const SimResctrlTelemetry& m_telemetry;
};

} // namespace rdt::sim

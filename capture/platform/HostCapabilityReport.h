// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/CapabilityReport.h"

namespace rdt {

/// This machine as `info` and the Machine page describe it: the CPUID instruction, the environment (hypervisor,
/// kernel, resctrl), the sysfs topology, and for a hybrid part each core type (CoreTypeView.h). The one description
/// of the host, used locally and by an agent answering for its machine.
CapabilityReport hostCapabilityReport();

} // namespace rdt

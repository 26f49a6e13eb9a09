// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/CapabilityReport.h"

#include <vector>

namespace rdt {

/// The "AMD Platform QoS" lines of the capability report (leaf 80000020H, MBA's 80000008H bit), with the resctrl
/// feature each one becomes; nothing for other vendors.
void appendAmdQosLines(const CpuFeatures& f, std::vector<CapabilityLine>& lines);

} // namespace rdt

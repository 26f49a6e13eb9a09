// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtSource.h"

namespace rdt {

/// `msr`: MsrBackend over /dev/cpu/N/msr with the live CPUID (capture/platform), refusing while resctrl is mounted.
Result<RdtSource> openMsrSource(const RdtSourceOptions& options);

} // namespace rdt

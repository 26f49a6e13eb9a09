// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrRdtEnumeration.h"
#include "MsrTopology.h"
#include "RdtBackend.h"

namespace rdt {

/// What CPUID enumerates (MsrRdtEnumeration), said as the Capabilities every backend reports; CDP halves the CLOS
/// of its cache level (SDM 20.19.5).
Capabilities msrCapabilities(const MsrRdtEnumeration& enumeration, const MsrTopology& topology, bool cdpL3, bool cdpL2);

} // namespace rdt

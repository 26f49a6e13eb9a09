// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"

#include <string>

namespace rdt {

/// One line per allocation resource with its rules in the vendor's units (what `alloc show` and `info --source`
/// print): cache masks with sparse/io_alloc notes, bandwidth ranges as "%", "GB/s" or "MiB/s".
/// A value not read from its info/ file says so: "unknown (info/L3/min_cbm_bits is missing)" or "fffff (inferred
/// from ...)".
std::string formatResourceLines(const Capabilities& caps);

/// "control groups: at most 16 (incl. the default group)" and the L3_MON line (RMIDs, events, domains), with the
/// same unknown/inferred marks.
std::string formatGroupLimits(const Capabilities& caps);

/// The features the kernel shows only in info/ (no /proc/cpuinfo flag): BMEC configurations as transaction names,
/// counter assignment mode and free counters, event filters, io_alloc ways, SNC nodes per L3, PERF_PKG_MON
/// telemetry and the monitor-group limit it sets. Empty when the tree has none of them.
std::string formatVendorFeatures(const Capabilities& caps);

/// "free MBM counters: 0=29 1=29 2=30 3=29 (of 32)"; "" unless counters are assignable (mbm_event mode).
std::string formatFreeCounters(const MonitorCaps& m);

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// ResctrlCapabilityReader's readers of the info/ files newer kernels add (AMD BMEC, ABMC, io_alloc; Intel SNC,
// PERF_PKG_MON): part of ResctrlCapabilityReader::load, kept apart so each reader stays small.

#include "RdtBackend.h"
#include "core/Fs.h"

#include <string>
#include <vector>

namespace rdt {

/// info/L3_MON's optional files: BMEC configurations, assignment mode, counter pools, event filters.
void loadMonitorExtras(Fs& fs, const std::string& base, MonitorCaps& m, std::vector<std::string>& warnings);
/// info/PERF_PKG_MON.
void loadTelemetryCaps(Fs& fs, const std::string& base, TelemetryCaps& t);
/// info/<cache>/io_alloc and io_alloc_cbm.
void loadIoAlloc(Fs& fs, const std::string& base, ResourceCaps& r, std::vector<std::string>& warnings);
/// The root's mon_data: mon_L3_XX (with SNC's mon_sub_L3_YY inside) and mon_PERF_PKG_XX domains.
void loadMonDataDomains(Fs& fs, Capabilities& caps);
/// info/<dir>/resource_schemata/<control>/ for every control listed there (the 2026 "Generic schema description"
/// RFC); empty when the directory is absent. A file that is missing, unreadable, too long or not a number leaves that
/// property unknown, said in ControlDescription::unknown and in `warnings`; a control name that is no schemata name
/// (not [A-Z0-9_], at most 32 characters) is skipped with a warning. At most 64 controls are read.
std::vector<api::ControlDescription> loadControlDescriptions(
    Fs& fs, const std::string& dir, std::vector<std::string>& warnings);
/// What a bandwidth control's values mean and do, once its files are read: its role by the schemata name
/// (api::bandwidthControlOf), its bounds and unit from its own description when the kernel has one (a description of
/// unit "all" with resolution 100 is a percentage, of unit GBps with resolution 8 AMD's eighths of a GB/s), CBQRI's
/// blocks and weights otherwise, and MB_MIN's budget: the description's max (MRBWB, the most blocks all groups may
/// reserve together), else unknown and marked so.
void applyControlMeaning(ResourceCaps& r, std::vector<std::string>& warnings);
/// What a bandwidth resource's values mean, from the files the kernel fills differently per vendor: AMD sets
/// min_bandwidth 0, bandwidth_gran 1 and a non-linear delay (no Intel MBA has min_bandwidth 0), SMBA exists only on
/// AMD, and mba_MBps shows a root default of 4294967295 and per-group mba_MBps_event files.
BandwidthUnit detectBandwidthUnit(Fs& fs, const ResourceCaps& r, const std::vector<std::uint64_t>& rootValues);

} // namespace rdt

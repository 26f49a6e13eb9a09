// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The records the parts of the resctrl emulation (SimResctrlFs) share: a group, a schemata resource, a resolved path.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rdt::sim {

/// The L3_MON event files in mon_features order (resctrl.rst "mon_features").
inline constexpr const char* kL3MonEvents[3] = { "llc_occupancy", "mbm_total_bytes", "mbm_local_bytes" };

/// A resctrl group: CTRL_MON (owns a CLOSID and an RMID) or MON (an RMID under its CTRL_MON parent).
struct ResctrlGroup {
    std::string name;
    bool ctrl = true;
    std::uint32_t closid = 0, rmid = 0;
    ResctrlGroup* parent = nullptr; ///< MON groups: their CTRL_MON group
    std::vector<bool> cpus;
    std::string mode = "shareable";
    std::map<std::string, std::unique_ptr<ResctrlGroup>> mon;
};

/// MB: x86's and MPAM's MB (percent, or AMD's GB/s); MbMin, MbWeight: CBQRI's MB_MIN and MB_WGHT; MbRegion: one bound
/// of a region-aware triple (MB_REGION<n>_MIN/_OPT/_MAX). The last three are SimBandwidthControls'.
enum class SchemaKind { L3, L2, MB, MbMin, MbWeight, MbRegion };
enum class CdpType { None, Code, Data };
enum class RegionBound { None, Min, Opt, Max };
/// One line of the schemata file (the kernel's struct resctrl_schema).
struct Schema {
    std::string name;
    SchemaKind kind;
    CdpType type;
    std::uint32_t numClosid;
    int region = -1; ///< MbRegion: n
    RegionBound bound = RegionBound::None; ///< MbRegion: which bound
    /// Whether info/ has a directory of this name (a region bound is described under info/MB/resource_schemata/).
    bool infoDir = true;
    bool isCache() const { return kind == SchemaKind::L3 || kind == SchemaKind::L2; }
};

/// What a path of the emulated tree names.
struct ResctrlPath {
    enum Kind { None, Root, InfoDir, InfoFile, GroupDir, GroupFile, MonGroupsDir, MonDataDir, MonDomainDir, MonFile };
    Kind kind = None;
    ResctrlGroup* group = nullptr;
    std::string info; ///< info sub-dir ("" for info/ itself)
    std::string file;
    int domain = -1;
    int node = -1; ///< SNC: the node of a mon_sub_L3_YY directory, within its domain (-1: the whole L3)
    bool package = false; ///< domain is a mon_PERF_PKG_XX package id, not an L3 id
};

} // namespace rdt::sim

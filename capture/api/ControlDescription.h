// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A control that describes itself: the files of info/<RES>/resource_schemata/<CTRL>/ that the 2026 resctrl RFC
// "Generic schema description" (mpam,x86,fs/resctrl, Reinette Chatre) adds for every schemata line: type, min, max,
// resolution, scale, unit, scope and tolerance. With them a value's meaning comes from the kernel, not from
// knowing the vendor: a value v stands for v x scale / resolution of `unit` ("all" = the whole resource, so Intel's
// MB reads resolution 100: v percent; AMD's reads unit GBps, resolution 8: v eighths of a GB/s). What a tree does not
// say stays unknown, with the reason (docs/RESCTRL.md "Dialects").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt::api {

struct ControlDescription {
    std::string name; ///< the schemata line it describes: "MB", "MB_MIN", "MB_REGION0_MAX", "L3"
    std::string resource; ///< the info/ directory it is found under: "MB"
    std::string type; ///< "scalar linear", "bitmap", ... as read; "" when unknown
    std::optional<std::uint64_t> min, max, resolution, scale, tolerance;
    std::string unit; ///< "all", "GBps", "MBps", ...; "" when unknown
    std::string scope; ///< "L3", "NODE", ...; "" when unknown
    /// "max: info/MB/resource_schemata/MB/max is missing": one line per file that could not be read.
    std::vector<std::string> unknown;

    bool bitmap() const { return type == "bitmap"; }
    bool scalar() const { return type.rfind("scalar", 0) == 0; }
    /// v x scale / resolution, the quantity a raw value stands for in `unit`; nullopt when a factor is unknown or 0.
    std::optional<double> quantityOf(std::uint64_t raw) const;
    /// "scalar linear, 1..511, 511 = the whole region (unit all, resolution 511, scale 1), scope L3"; unknown
    /// parts are written "unknown".
    std::string summary() const;
};

} // namespace rdt::api

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which facility produced a recording's load-latency samples, and its latency threshold (docs/PMU.md
// "Load-latency sources"): Intel PEBS load latency (ldlat in config1 bits 0-15), AMD IBS op sampling (Zen 5's
// ldlat in config1 bits 0-11, l3missonly in config bit 16), or Arm SPE (min_latency in config2 bits 0-11), from the
// event's PMU (HEADER_PMU_MAPPINGS) and the recording's CPU.

#include "PerfDataFeatures.h"
#include "pmu/PerfRecord.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rdt::perfdata {

struct LoadLatencyOrigin {
    enum class Facility : std::uint8_t { Unknown, IntelPebs, AmdIbsOp, ArmSpe };
    Facility facility = Facility::Unknown;
    std::optional<std::uint32_t> threshold; ///< cycles; unset when the attr sets none
    bool l3MissOnly = false; ///< IBS op l3missonly=1: only loads that missed L3 were tagged

    /// "Intel PEBS load latency, ldlat 30", "AMD IBS op, l3missonly, ldlat 128", "Arm SPE, min_latency 64",
    /// "unknown facility".
    std::string describe() const;
};

LoadLatencyOrigin loadLatencyOrigin(const pmu::EventAttr& attr, const HeaderInfo& header);

} // namespace rdt::perfdata

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where a recording's branch stacks came from (docs/PMU.md "Branch stack sources"): the hardware that recorded
// them, or the trace they were synthesized from. Decided from the event attributes and the recording's CPU
// (capture/perfdata's branchStackSource), never from the samples' shape.

#include <cstdint>
#include <string_view>

namespace rdt::pmu {

enum class BranchStackSource : std::uint8_t {
    Unknown, ///< the recording does not say (no CPU id, an architecture not listed)
    IntelLbr, ///< Intel model-specific LBR (SDM 21.1)
    IntelArchLbr, ///< Intel architectural LBR (Alder Lake, Sapphire Rapids and later; SDM 21.1.3)
    AmdBrs, ///< AMD Zen 3 Branch Sampling (16 entries, any-branch only)
    AmdLbrV2, ///< AMD LbrExtV2 (Zen 4 and later)
    ArmBrbe, ///< Arm Branch Record Buffer Extension
    SynthesizedEtm, ///< built by `perf inject --itrace` from a CoreSight ETM trace
    SynthesizedSpe, ///< built from Arm SPE samples
    SynthesizedPt, ///< built from an Intel PT trace
    Simulated, ///< rdtscope's simulated PMU
};

/// "Intel LBR", "AMD LbrExtV2", "synthesized from CoreSight ETM", ...
std::string_view branchStackSourceName(BranchStackSource source);

} // namespace rdt::pmu

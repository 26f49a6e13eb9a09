// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which core PMU the simulated PMU stands for. A simulated machine described by its CPUID gets the PMU of that
// CPU's generation, so the TMA it reports uses the events that CPU has: the topdown slots event and PERF_METRICS
// from Ice Lake on (architectural event 7 of CPUID.0AH, SDM 22.2.7 and Table 22-3), level 2 from Sapphire Rapids
// on, and the older formula over generic counters (cycles, UOPS_ISSUED, UOPS_RETIRED.RETIRE_SLOTS,
// IDQ_UOPS_NOT_DELIVERED, INT_MISC.RECOVERY_CYCLES) before.

#include "platform/CpuFeatures.h"

#include <optional>
#include <string>

namespace rdt::pmu {

struct SimPmuModel {
    std::string pfmName = "spr"; ///< libpfm4 PMU name whose events the recipes encode (pmu/EventEncoder.h)
    std::string label = "Sapphire Rapids"; ///< for "simulated Skylake-SP-class PMU"
};

/// The PMU of the CPU `features` describes: by family/model where known, else by whether CPUID.0AH enumerates the
/// topdown slots event. A CPU that is not Intel, or a machine with no CPUID, keeps the default (Sapphire Rapids).
SimPmuModel simulatedPmuModel(const CpuFeatures& features);

/// The model a front end names by its libpfm4 PMU name (PmuRequest::simPmu: what simulatedPmuModel chose for its
/// simulated machine); nullopt for a name simulatedPmuModel never picks.
std::optional<SimPmuModel> simulatedPmuModelNamed(const std::string& pfmName);
/// The names simulatedPmuModelNamed knows, comma-separated, for advice.
std::string simulatedPmuModelNames();

} // namespace rdt::pmu

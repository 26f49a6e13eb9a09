// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The core PMUs to build recipes for. One on most parts ("cpu", encoded through libpfm4); two on hybrid Intel
// parts: cpu_core (P-cores) and cpu_atom (E-cores), each with its own sysfs type and CPUs. perf opens every hardware
// event once per core PMU and merges the samples (tools/perf/util/pmus.c, evsel per core PMU); rdtscope builds one
// recipe per PMU the same way, so threads on E-cores are sampled and counted too. Shared by the CLI and the GUI.

#include "EventEncoder.h"
#include "PerfSyscalls.h"
#include "Recipes.h"
#include "core/Result.h"

#include <string>
#include <vector>

namespace rdt::pmu {

struct CorePmuPart {
    std::string pmuName; ///< "cpu_core" / "cpu_atom" on hybrid parts, empty otherwise
    std::string label; ///< "P-cores (cpu_core)" / "E-cores (cpu_atom)", empty otherwise
    std::vector<int> cpus; ///< the PMU's CPUs (hybrid), empty = every online CPU
    std::uint32_t type = 0; ///< the PMU's sysfs type (hybrid), 0 otherwise
    EventEncoder encoder;
};

/// The E-core generation of a hybrid family-6 model (arch/x86/include/asm/intel-family.h): Gracemont for Alder Lake
/// 0x97/0x9A ("Golden Cove / Gracemont") and Raptor Lake 0xB7/0xBA/0xBF ("Raptor Cove / Enhanced Gracemont");
/// Crestmont for Meteor Lake 0xAA/0xAC ("Redwood Cove / Crestmont"; perf's mapfile.csv also maps 0xB5 to
/// meteorlake); TmaModel::None for others (Arrow Lake, Lunar Lake...: not verified here).
TmaModel eCoreGeneration(int family, int model);

/// Hybrid parts only (no libpfm call, so tests run anywhere): the P-core part uses `pCore` when libpfm knows the
/// model (newer libpfm4 has adl_glc), else rdtscope's own Golden Cove table ("adl_glc": slots + 8 metric events,
/// with mem-loads-aux except on Meteor Lake, whose kernel PMU has none); the E-core part uses the own table of its
/// generation ("adl_grt" Gracemont, "mtl_cmt" Crestmont), with TMA left out (and why) on unverified models.
std::vector<CorePmuPart> hybridParts(const PerfEnvironment& env, const EventEncoder* pCore = nullptr);

/// The parts for this machine: hybridParts() when cpu_core/cpu_atom exist, else one part from libpfm4.
Result<std::vector<CorePmuPart>> corePmuParts(const PerfEnvironment& env);

enum class RecipeKind : std::uint8_t { Tma, LbrAny, LbrCallStack, LoadLatency };

struct PartRecipes {
    std::vector<Recipe> recipes; ///< one per part that can run the capture, each with pmuName/pmuLabel/cpus set
    std::vector<std::string> notes; ///< parts left out and why ("E-cores (cpu_atom): TMA is not available ...")
};

/// One recipe of `kind` per part. A part that cannot run it is left out with a note while another can; when none
/// can, the first part's error is returned.
Result<PartRecipes> recipesForParts(const std::vector<CorePmuPart>& parts, RecipeKind kind, const RecipeOptions& opt);

/// "cpu_core (type 4, CPUs 0-7), cpu_atom (type 7, CPUs 8-15)", or the single PMU's libpfm name.
std::string describeParts(const std::vector<CorePmuPart>& parts);

} // namespace rdt::pmu

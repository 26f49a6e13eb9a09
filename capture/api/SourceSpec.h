// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a user names with --source, and whether --scenario and --preset apply to it: the one grammar the CLI, the
// GUI, the agent and the lessons read (docs/ARCHITECTURE.md "Sources"). The engine assembles the source
// (engine/SourceAssembly.h); this only says what was asked for, or why it cannot be.

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace rdt::api {

enum class SourceKind : std::uint8_t {
    Auto, ///< real resctrl when it is mounted and usable, else the simulator
    Sim, ///< the simulated machine through its resctrl emulation
    SimMsr, ///< the simulated machine through its RDT MSRs (with a path: registers kept in that directory)
    Resctrl, ///< a resctrl tree: /sys/fs/resctrl, or the path given
    Msr, ///< the RDT MSRs of this machine (/dev/cpu/N/msr)
};

/// "auto", "sim", "sim-msr", "resctrl", "msr".
const char* sourceKindName(SourceKind kind);

struct SourceSpec {
    SourceKind kind = SourceKind::Auto;
    /// resctrl:PATH (the tree's root) or sim-msr:DIR (where the simulated registers are kept); "" otherwise.
    std::string path;

    /// The canonical spelling: "sim", "resctrl:/tmp/full".
    std::string text() const;
    bool simulated() const { return kind == SourceKind::Sim || kind == SourceKind::SimMsr; }
};

/// The forms --source takes, for help texts and errors: "auto, sim, sim-msr[:DIR], resctrl[:PATH] or msr".
const char* sourceSpecForms();

/// The one parser of --source. Unknown kinds, an empty path after ':' and a path on a kind that takes none are
/// refused (EINVAL) with the forms as advice.
Result<SourceSpec> parseSourceSpec(std::string_view text);

/// --scenario NAME and --preset ID describe the simulated machine: refused, with the reason, where they would be
/// ignored (a real resctrl tree or the MSRs describe themselves; a preset is `sim`'s only: sim-msr simulates its
/// scenario's own machine). Empty means not given. `auto` passes: call again with the kind it resolved to.
Status checkSimulatorOptions(const SourceSpec& spec, const std::string& scenario, const std::string& preset);

} // namespace rdt::api

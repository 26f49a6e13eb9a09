// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "platform/CpuidSource.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rdt::sim {

using rdt::CpuidRegs;

/// The raw CPUID registers of the simulated processor, one entry per (leaf, subleaf).
/// Presets are real processors' values (see SimPresets.cpp); a dump file gives any other processor.
/// Whatever the simulator had to invent (e.g. leaf 10H subleaf 3 that InstLatx64 dumps never contain) is
/// recorded in notes(), so the machine panel can label it "synthesized".
class SimCpuid {
public:
    void set(std::uint32_t leaf, std::uint32_t subleaf, CpuidRegs regs) { m_leaves[{ leaf, subleaf }] = regs; }
    bool has(std::uint32_t leaf, std::uint32_t subleaf) const { return m_leaves.count({ leaf, subleaf }) != 0; }
    /// Zeros for a leaf the table does not hold (what a CPU returns for an unsupported subleaf of leaf 10H/0FH).
    CpuidRegs query(std::uint32_t leaf, std::uint32_t subleaf = 0) const;
    const std::map<std::pair<std::uint32_t, std::uint32_t>, CpuidRegs>& leaves() const { return m_leaves; }
    /// The same values as a platform CpuidSource (what CPUID decoding and the MSR backend read).
    rdt::CpuidTable table() const;
    static SimCpuid fromTable(const rdt::CpuidTable& table);

    std::string name; ///< brand string or preset id
    std::string source; ///< where the values come from ("InstLatx64 dump ...", a file path)
    std::vector<std::string> notes; ///< every synthesized or overridden value, human readable

    /// Brand string from leaves 80000002H-80000004H (empty when absent).
    std::string brand() const;

private:
    std::map<std::pair<std::uint32_t, std::uint32_t>, CpuidRegs> m_leaves;
};

/// Reads a CPUID dump of logical CPU #0 in any format platform/CpuidDump.h reads (AIDA64/InstLatx64 text,
/// `cpuid -r`, rdtscope JSON) and synthesizes what it lacks (`--sim-cpuid FILE`).
Result<SimCpuid> loadSimCpuid(const std::string& path);

/// Fills in what real dumps lack, as docs/RESCTRL.md "CPUID dumps" says (InstLatx64 dumps never contain leaf
/// 0x10 subleaf 2 or 3): subleaf 3 (MBA) when 10H.0:EBX[3] enumerates MBA, subleaf 2 (L2 CAT) when 10H.0:EBX[2] does.
/// mbaClos is the number of MBA CLOS to synthesize (Skylake/Cascade Lake-SP: 8). Each addition is noted.
void synthesizeMissingLeaves(SimCpuid& cpuid, unsigned mbaClos = 8);

/// Synthetic edits for lessons ("override mbm_scale 4096" in a scenario). Each edit changes the raw registers so
/// every consumer (CPUID decoding, the resctrl and MSR backends) sees the same machine, and is noted.
/// Keys: mbm_scale N, mbm_width N (24..62), overflow_bit 0|1, num_rmids N, l3_closids N, l3_cdp 0|1,
/// l3_sparse 0|1, l2_cat BITS (adds L2 CAT with that mask length, 8 CLOS), l2_cdp 0|1, mba_closids N,
/// mba_linear 0|1, mba_per_thread 0|1, cba LEVELS (adds CBA with max level LEVELS, 16 CLOS).
Status applyCpuidOverride(SimCpuid& cpuid, const std::string& key, std::uint64_t value);

struct PresetInfo {
    std::string id; ///< "skx-6154"
    std::string name; ///< "Xeon Gold 6154 (Skylake-SP)"
    std::string source; ///< dump file it was taken from
    unsigned coresPerL3 = 0; ///< SimTopology::coresPerL3: 0 = one L3 per socket (Intel), 8 = a Zen 4 CCX
    unsigned coresPerSocket = 0; ///< the size to simulate when the preset replaces a scenario's (0 = the scenario's)
    unsigned sncNodes = 0; ///< SimTopology::sncNodes: Sub-NUMA Clustering nodes per L3 (0 = off)
    bool pkgTelemetry = false; ///< SimOptions::pkgTelemetry: resctrl shows (synthetic) PERF_PKG_MON telemetry
    int dialect = 0; ///< SimOptions::dialect as its ResctrlDialect value (0 = X86)
};
/// The preset's entry (nullptr for an unknown id).
const PresetInfo* presetInfo(const std::string& id);
const std::vector<PresetInfo>& presets();
/// The id used when nothing else is asked for: a Skylake-SP (Xeon Gold 6154).
inline const char* defaultPresetId()
{
    return "skx-6154";
}
/// The preset's raw CPUID, with the missing 10H subleaves already synthesized.
Result<SimCpuid> presetCpuid(const std::string& id);

} // namespace rdt::sim

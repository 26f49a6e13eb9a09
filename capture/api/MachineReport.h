// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the machine an engine measures is, decided once by the engine (engine/MachineReportOf.h) for every source:
// the CPUID decoded (vendor, caches with size, ways and the leaf they came from, RDT and PMU capabilities), the
// environment and topology as the engine's machine describes them, and where the engine runs. Front ends display
// it; none of them parses or decodes CPUID again. Plain values: no platform types, no JSON text.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt::api {

struct CpuReport {
    bool known = false; ///< false: no CPUID of the machine is known (a session recorded without a snapshot)
    std::string vendor; ///< CPUID.00H: "GenuineIntel", "AuthenticAMD", "HygonGenuine"
    std::string brand; ///< CPUID.80000002H-80000004H
    unsigned family = 0; ///< DisplayFamily (SDM Vol. 2A CPUID leaf 01H)
    unsigned model = 0; ///< DisplayModel
    unsigned stepping = 0;
    bool hypervisor = false; ///< CPUID.01H:ECX[31]
    bool simulated = false; ///< the simulated machine's CPU, not silicon
    std::string source; ///< where the CPUID came from (CpuidSource::describe() of the decoded snapshot)

    bool isIntel() const { return vendor == "GenuineIntel"; }
    /// AMD's rules (8000001DH caches, 1/8 GB/s bandwidth) apply: AMD and Hygon.
    bool isAmd() const { return vendor == "AuthenticAMD" || vendor == "HygonGenuine"; }
};

/// One cache as its CPUID leaf describes it (SDM Vol. 2A CPUID leaf 04H; AMD's 8000001DH has the same layout).
struct CacheReport {
    unsigned level = 0;
    std::string type; ///< "Data", "Instruction", "Unified"
    std::uint64_t bytes = 0; ///< ways x partitions x line size x sets (or the size the leaf states)
    unsigned ways = 0;
    unsigned lineBytes = 0;
    unsigned sets = 0;
    unsigned sharingThreads = 0; ///< logical processors sharing one instance (EAX[25:14] + 1)
    std::string leaf; ///< "CPUID.04H", "CPUID.8000001DH"
    unsigned subleaf = 0;
};

/// What the CPU enumerates of RDT (SDM 20.18, 20.19); resctrl's view of it is the engine's Capabilities.
struct RdtReport {
    bool monitoring = false; ///< CPUID.07H.00H:EBX[12]
    bool l3Occupancy = false; ///< CPUID.0FH.01H:EDX[0]
    bool mbmTotal = false; ///< EDX[1]
    bool mbmLocal = false; ///< EDX[2]
    unsigned rmids = 0; ///< CPUID.0FH.01H:ECX + 1; 0 when unknown
    unsigned mbmCounterWidth = 0; ///< 24 + CPUID.0FH.01H:EAX[7:0]; 0 when unknown
    bool allocation = false; ///< CPUID.07H.00H:EBX[15]
    unsigned l3CbmLength = 0; ///< CPUID.10H.01H:EAX[4:0] + 1; 0 when L3 CAT is absent
    unsigned l2CbmLength = 0; ///< CPUID.10H.02H
    bool l3Cdp = false;
    bool l2Cdp = false;
    unsigned l3Clos = 0;
    bool mba = false; ///< CPUID.10H.00H:EBX[3]
    unsigned mbaMaxThrottle = 0; ///< CPUID.10H.03H:EAX[11:0] + 1
    bool mbaLinear = false;
    bool cba = false; ///< CPUID.10H.00H:EBX[5]
    std::string whyNot; ///< why RDT is unusable on that machine ("" when usable)
};

/// The core PMU the CPU enumerates (SDM 20.2: CPUID.0AH; 07H.00H:EDX[19] and 1CH for architectural LBR).
struct PmuReport {
    unsigned version = 0; ///< CPUID.0AH:EAX[7:0]
    unsigned gpCounters = 0;
    unsigned gpWidth = 0;
    unsigned fixedCounters = 0;
    bool topdownSlots = false; ///< architectural event 7 (topdown slots) available
    bool archLbr = false;
    std::vector<unsigned> lbrDepths;
    /// The PMU generation the simulated PMU takes for this CPU (libpfm4 name, label): what simulated captures on
    /// this machine count with.
    std::string simulatedPmuName;
    std::string simulatedPmuLabel;
};

/// One line as `rdtscope-cli info` prints it and the Machine page shows it.
struct MachineLine {
    std::string group; ///< "Identity", "Caches", "Environment", "Topology", ...
    std::string name;
    std::string value;
    bool present = false;
    std::string origin; ///< "CPUID.(EAX=10H,ECX=1):EAX[4:0]" or a file
    std::string sdmSection;
    std::string whyNot;
};

struct MachineReport {
    CpuReport cpu;
    std::vector<CacheReport> caches;
    RdtReport rdt;
    PmuReport pmu;
    /// The whole description, in the order `rdtscope-cli info` prints it, environment and topology included when
    /// the engine could probe its machine (a replay or a dump cannot); empty when the engine describes no machine.
    std::vector<MachineLine> lines;
    std::string
        linesFrom; ///< where the CPUID of `lines` came from ("CPUID instruction (live) on srv (the agent's machine)")
    bool environmentProbed = false;
    std::string describeError; ///< why `lines` is empty ("" when it is not)
    std::string hostname; ///< of the machine the engine runs on (or ran on, for a replay)
    std::string kernel;
    std::string location; ///< where the engine runs: "" for this process, "the agent on root@srv"

    /// The cache `level` of `type` "Unified" or "Data", if the CPUID describes one.
    std::optional<CacheReport> cache(unsigned level) const
    {
        for (const auto& c : caches)
            if (c.level == level && c.type != "Instruction") return c;
        return std::nullopt;
    }
    /// The lines of one group ("Environment", "Topology").
    std::vector<MachineLine> linesOf(const std::string& group) const
    {
        std::vector<MachineLine> out;
        for (const auto& l : lines)
            if (l.group == group) out.push_back(l);
        return out;
    }
};

} // namespace rdt::api

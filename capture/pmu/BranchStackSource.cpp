// SPDX-License-Identifier: GPL-3.0-or-later
#include "BranchStackSource.h"

namespace rdt::pmu {

std::string_view branchStackSourceName(BranchStackSource source)
{
    switch (source) {
    case BranchStackSource::IntelLbr:
        return "Intel LBR";
    case BranchStackSource::IntelArchLbr:
        return "Intel arch LBR";
    case BranchStackSource::AmdBrs:
        return "AMD BRS";
    case BranchStackSource::AmdLbrV2:
        return "AMD LbrExtV2";
    case BranchStackSource::ArmBrbe:
        return "Arm BRBE";
    case BranchStackSource::SynthesizedEtm:
        return "synthesized from CoreSight ETM";
    case BranchStackSource::SynthesizedSpe:
        return "synthesized from Arm SPE";
    case BranchStackSource::SynthesizedPt:
        return "synthesized from Intel PT";
    case BranchStackSource::Simulated:
        return "simulated LBR";
    default:
        return "unknown source";
    }
}

} // namespace rdt::pmu

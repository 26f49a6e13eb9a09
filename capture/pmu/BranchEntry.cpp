// SPDX-License-Identifier: GPL-3.0-or-later
#include "BranchEntry.h"

namespace rdt::pmu {

std::uint64_t BranchEntry::makeFlags(bool mispred, bool predicted, std::uint16_t cycles, std::uint8_t type, bool inTx,
    bool abort, std::uint8_t spec, std::uint8_t newType, std::uint8_t priv)
{
    return (mispred ? 1u : 0u) | (predicted ? 2u : 0u) | (inTx ? 4u : 0u) | (abort ? 8u : 0u)
        | (std::uint64_t { cycles } << 4) | ((std::uint64_t { type } & 0xf) << 20)
        | ((std::uint64_t { spec } & 0x3) << 24) | ((std::uint64_t { newType } & 0xf) << 26)
        | ((std::uint64_t { priv } & 0x7) << 30);
}

} // namespace rdt::pmu

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace rdt::pmu {

/// struct perf_branch_entry (24 bytes, the kernel's layout): from, to and the flags word, decoded on demand.
struct BranchEntry {
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    std::uint64_t flags = 0; ///< mispred:1 predicted:1 in_tx:1 abort:1 cycles:16 type:4 spec:2 new_type:4 priv:3

    bool mispred() const { return (flags & 1u) != 0; }
    bool predicted() const { return ((flags >> 1) & 1u) != 0; }
    bool inTx() const { return ((flags >> 2) & 1u) != 0; }
    bool abort() const { return ((flags >> 3) & 1u) != 0; }
    std::uint16_t cycles() const { return static_cast<std::uint16_t>((flags >> 4) & 0xffffu); }
    std::uint8_t type() const { return static_cast<std::uint8_t>((flags >> 20) & 0xfu); } ///< perf::BranchType
    std::uint8_t spec() const { return static_cast<std::uint8_t>((flags >> 24) & 0x3u); }
    std::uint8_t newType() const { return static_cast<std::uint8_t>((flags >> 26) & 0xfu); }
    std::uint8_t priv() const { return static_cast<std::uint8_t>((flags >> 30) & 0x7u); }

    static std::uint64_t makeFlags(bool mispred, bool predicted, std::uint16_t cycles, std::uint8_t type = 0,
        bool inTx = false, bool abort = false, std::uint8_t spec = 0, std::uint8_t newType = 0, std::uint8_t priv = 0);
};

} // namespace rdt::pmu

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a taken branch is (docs/PMU.md "Edge kinds"): a call, a return, a jump (conditional, unconditional or
// indirect, inside the code), a trap (syscall, interrupt, exception and their returns) or unknown. The kind comes
// from the record's branch type (uapi PERF_BR_*) when the PMU saved it, else from the binary's instruction at the
// branch source, else it is unknown: an address pair alone never makes a call.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace rdt::pmu {

enum class EdgeKind : std::uint8_t { Unknown, Call, Return, Jump, Trap, Count };
/// Where an edge's kind came from.
enum class EdgeKindFrom : std::uint8_t {
    None, ///< no branch type in the record and no binary to read: the kind is unknown
    BranchType, ///< the record's PERF_BR_* type (branch_sample_type TYPE_SAVE, or filled in by the PMU)
    Disassembly, ///< the instruction at the branch source in the profiled binary
    CallStack, ///< call-stack mode: the hardware keeps only calls, so every edge is one
};

constexpr std::size_t kEdgeKinds = static_cast<std::size_t>(EdgeKind::Count);

/// "call", "return", "jump", "trap", "unknown".
std::string_view edgeKindName(EdgeKind kind);
/// "branch type", "disassembly", "call stack", "none".
std::string_view edgeKindFromName(EdgeKindFrom from);

/// The kind of a PERF_BR_* type (and its PERF_BR_NEW_* extension when type is EXTEND_ABI); Unknown for
/// PERF_BR_UNKNOWN and for values the uapi does not define.
EdgeKind edgeKindOfBranchType(std::uint8_t type, std::uint8_t newType);

/// ELF e_machine values the instruction decoder knows (elf.h).
constexpr std::uint16_t kElfMachine386 = 3, kElfMachineX86_64 = 62, kElfMachineAarch64 = 183;

/// The kind of the branch instruction at the start of `code` (the bytes at the branch source in the binary, as
/// many as are there up to 15), for x86 (32/64-bit) and AArch64 (`elfMachine`). Unknown when the bytes are not a
/// branch instruction (an interrupted instruction, a wrong binary) or the architecture is another.
EdgeKind edgeKindOfInstruction(std::span<const std::uint8_t> code, std::uint16_t elfMachine);

} // namespace rdt::pmu

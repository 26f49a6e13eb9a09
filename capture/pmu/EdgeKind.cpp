// SPDX-License-Identifier: GPL-3.0-or-later
#include "EdgeKind.h"

#include "PerfRecord.h"

namespace rdt::pmu {

std::string_view edgeKindName(EdgeKind kind)
{
    switch (kind) {
    case EdgeKind::Call:
        return "call";
    case EdgeKind::Return:
        return "return";
    case EdgeKind::Jump:
        return "jump";
    case EdgeKind::Trap:
        return "trap";
    default:
        return "unknown";
    }
}

std::string_view edgeKindFromName(EdgeKindFrom from)
{
    switch (from) {
    case EdgeKindFrom::BranchType:
        return "branch type";
    case EdgeKindFrom::Disassembly:
        return "disassembly";
    case EdgeKindFrom::CallStack:
        return "call stack";
    default:
        return "none";
    }
}

EdgeKind edgeKindOfBranchType(std::uint8_t type, std::uint8_t newType)
{
    switch (type) {
    case perf::BrCond:
    case perf::BrUncond:
    case perf::BrInd:
        return EdgeKind::Jump;
    case perf::BrCall:
    case perf::BrIndCall:
    case perf::BrCondCall:
        return EdgeKind::Call;
    case perf::BrRet:
    case perf::BrCondRet:
        return EdgeKind::Return;
    case perf::BrSyscall:
    case perf::BrSysret:
    case perf::BrEret:
    case perf::BrIrq:
    case perf::BrSerror:
        return EdgeKind::Trap;
    case perf::BrExtendAbi: // PERF_BR_NEW_*: faults (alignment, data, instruction) and architecture-specific traps
        return newType <= 7 ? EdgeKind::Trap : EdgeKind::Unknown;
    default: // UNKNOWN, NO_TX (a transaction abort marker, not a branch kind)
        return EdgeKind::Unknown;
    }
}

namespace {

// x86: the one-byte and two-byte opcode maps (Intel SDM Vol. 2D, Appendix A, tables; group 5 in
// table A-6). Legacy prefixes and REX may precede the opcode (SDM Vol. 2A, 2.1.1 and 2.2.1).
EdgeKind x86Kind(std::span<const std::uint8_t> code, bool is64)
{
    std::size_t i = 0;
    auto isLegacyPrefix = [](std::uint8_t b) {
        return b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64
            || b == 0x65 || b == 0x66 || b == 0x67;
    };
    while (i < code.size() && i < 14 && isLegacyPrefix(code[i]))
        ++i;
    if (is64 && i < code.size() && (code[i] & 0xf0) == 0x40) ++i; // REX
    if (i >= code.size()) return EdgeKind::Unknown;
    const std::uint8_t op = code[i];
    if (op >= 0x70 && op <= 0x7f) return EdgeKind::Jump; // Jcc rel8
    if (op >= 0xe0 && op <= 0xe3) return EdgeKind::Jump; // LOOPcc, JrCXZ
    switch (op) {
    case 0xe8: // CALL rel
    case 0x9a: // CALL far (32-bit only)
        return EdgeKind::Call;
    case 0xc2:
    case 0xc3: // RET near
    case 0xca:
    case 0xcb: // RET far
        return EdgeKind::Return;
    case 0xe9:
    case 0xeb: // JMP rel
    case 0xea: // JMP far (32-bit only)
        return EdgeKind::Jump;
    case 0xcc:
    case 0xcd:
    case 0xce: // INT3, INT n, INTO
    case 0xcf: // IRET
    case 0xf1: // INT1
        return EdgeKind::Trap;
    case 0xff: { // group 5: /2 CALL, /3 CALL far, /4 JMP, /5 JMP far (ModRM reg field)
        if (i + 1 >= code.size()) return EdgeKind::Unknown;
        const unsigned reg = static_cast<unsigned>(code[i + 1] >> 3) & 7u;
        if (reg == 2 || reg == 3) return EdgeKind::Call;
        if (reg == 4 || reg == 5) return EdgeKind::Jump;
        return EdgeKind::Unknown;
    }
    case 0x0f: {
        if (i + 1 >= code.size()) return EdgeKind::Unknown;
        const std::uint8_t op2 = code[i + 1];
        if (op2 >= 0x80 && op2 <= 0x8f) return EdgeKind::Jump; // Jcc rel32
        if (op2 == 0x05 || op2 == 0x07 || op2 == 0x34 || op2 == 0x35)
            return EdgeKind::Trap; // SYSCALL/SYSRET/SYSENTER/SYSEXIT
        return EdgeKind::Unknown;
    }
    default:
        return EdgeKind::Unknown;
    }
}

// AArch64: "Branches, Exception Generating and System instructions" in the Arm Architecture Reference Manual for
// A-profile (DDI 0487, C4.1.3, unconditional branch (immediate / register), compare and branch, test and branch,
// conditional branch, exception generation).
EdgeKind aarch64Kind(std::span<const std::uint8_t> code)
{
    if (code.size() < 4) return EdgeKind::Unknown;
    const std::uint32_t insn = std::uint32_t { code[0] } | std::uint32_t { code[1] } << 8
        | std::uint32_t { code[2] } << 16 | std::uint32_t { code[3] } << 24;
    if ((insn & 0xfc000000u) == 0x94000000u) return EdgeKind::Call; // BL
    if ((insn & 0xfc000000u) == 0x14000000u) return EdgeKind::Jump; // B
    if ((insn & 0xff000000u) == 0x54000000u) return EdgeKind::Jump; // B.cond, BC.cond
    if ((insn & 0x7e000000u) == 0x34000000u) return EdgeKind::Jump; // CBZ, CBNZ
    if ((insn & 0x7e000000u) == 0x36000000u) return EdgeKind::Jump; // TBZ, TBNZ
    if ((insn & 0xfe000000u) == 0xd6000000u) { // unconditional branch (register): opc in bits 21-24
        const unsigned opc = (insn >> 21) & 0xfu;
        if (opc == 0) return EdgeKind::Jump; // BR, BRAA...
        if (opc == 1) return EdgeKind::Call; // BLR, BLRAA...
        if (opc == 2) return EdgeKind::Return; // RET, RETAA...
        if (opc == 4 || opc == 5) return EdgeKind::Trap; // ERET, DRPS
        if (opc == 8) return EdgeKind::Jump; // BRAA, BRAB (register modifier)
        if (opc == 9) return EdgeKind::Call; // BLRAA, BLRAB
        return EdgeKind::Unknown;
    }
    if ((insn & 0xff000000u) == 0xd4000000u) return EdgeKind::Trap; // SVC, HVC, SMC, BRK...
    return EdgeKind::Unknown;
}

} // namespace

EdgeKind edgeKindOfInstruction(std::span<const std::uint8_t> code, std::uint16_t elfMachine)
{
    switch (elfMachine) {
    case kElfMachineX86_64:
        return x86Kind(code, true);
    case kElfMachine386:
        return x86Kind(code, false);
    case kElfMachineAarch64:
        return aarch64Kind(code);
    default:
        return EdgeKind::Unknown;
    }
}

} // namespace rdt::pmu

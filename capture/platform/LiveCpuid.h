// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/CpuidSource.h"

#include "core/Result.h"
#include "core/UniqueFd.h"

#include <optional>

namespace rdt {

/// The CPUID instruction on this machine. Without a CPU number it executes the instruction (via <cpuid.h>
/// __cpuid_count) on whichever logical CPU the thread runs on; RDT leaves 0FH/10H are the same on every logical
/// CPU (SDM 20.21.x Table 20-23), so that is enough for enumeration. With a CPU number it reads
/// /dev/cpu/N/cpuid (pread at offset leaf | subleaf << 32), which needs the cpuid module and read permission.
/// Leaves above the maximum basic/extended leaf give nullopt: Intel CPUs would return the highest basic
/// leaf's data there, which must not be decoded as if it were the requested leaf.
class LiveCpuid final : public CpuidSource {
public:
    LiveCpuid();
    /// Opens /dev/cpu/<cpu>/cpuid; ENOENT advises `modprobe cpuid`, EACCES advises root.
    static Result<LiveCpuid> onCpu(unsigned cpu, const std::string& devRoot = "/dev/cpu");

    std::optional<CpuidRegs> query(std::uint32_t leaf, std::uint32_t subleaf) override;
    std::string describe() const override;

    /// False on machines where the instruction is not available (non-x86 builds): query() then gives nullopt.
    static bool instructionAvailable();

private:
    std::optional<CpuidRegs> raw(std::uint32_t leaf, std::uint32_t subleaf);

    std::optional<unsigned> m_cpu;
    std::string m_path;
    UniqueFd m_fd;
    std::uint32_t m_maxBasic = 0;
    std::uint32_t m_maxExtended = 0;
};

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstdint>
#include <string>

namespace rdt {

/// The model-specific-register seam (docs/ARCHITECTURE.md "The seams"). DevMsr does pread/pwrite on /dev/cpu/N/msr;
/// SimMsrSpace (capture/sim) implements the SDM's RDT MSRs over the simulated machine.
/// A #GP(0) from WRMSR/RDMSR (SDM 20.18.8.1, 20.19.6.3) is reported as an Error with code EIO, which is
/// what the Linux msr driver returns when the instruction faults.
class MsrSpace {
public:
    virtual ~MsrSpace() = default;
    virtual Result<std::uint64_t> read(unsigned cpu, std::uint32_t msr) = 0;
    virtual Status write(unsigned cpu, std::uint32_t msr, std::uint64_t value) = 0;
    virtual unsigned cpuCount() const = 0;
    virtual std::string describe() const = 0;
};

/// Architectural RDT MSR addresses (SDM 20.18.6-20.19.8, Table 20-19).
namespace msr {
constexpr std::uint32_t IA32_L3_QOS_CFG = 0x0C81;
constexpr std::uint32_t IA32_L2_QOS_CFG = 0x0C82;
constexpr std::uint32_t IA32_QM_EVTSEL = 0x0C8D;
constexpr std::uint32_t IA32_QM_CTR = 0x0C8E;
constexpr std::uint32_t IA32_PQR_ASSOC = 0x0C8F;
constexpr std::uint32_t IA32_L3_MASK_0 = 0x0C90;
constexpr std::uint32_t IA32_L2_MASK_0 = 0x0D10;
constexpr std::uint32_t IA32_L2_QOS_EXT_BW_THRTL_0 = 0x0D50; ///< MBA delay per CLOS (20.19.7.2)
constexpr std::uint32_t IA32_QOS_CORE_BW_THRTL_0 = 0x0E00; ///< CBA packed levels (20.19.8.3)

constexpr std::uint64_t QM_CTR_ERROR = 1ULL << 63;
constexpr std::uint64_t QM_CTR_UNAVAILABLE = 1ULL << 62;
constexpr std::uint64_t QM_CTR_OVERFLOW = 1ULL << 61; ///< when CPUID.0FH.01H:EAX[8] enumerates it

/// IA32_QM_EVTSEL event ids (20.18.7).
constexpr std::uint32_t EVENT_L3_OCCUPANCY = 1;
constexpr std::uint32_t EVENT_L3_TOTAL_BW = 2;
constexpr std::uint32_t EVENT_L3_LOCAL_BW = 3;
}

} // namespace rdt

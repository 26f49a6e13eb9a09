// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimMachine.h"
#include "platform/MsrSpace.h"

#include <map>
#include <tuple>
#include <vector>

namespace rdt::sim {

/// The SDM's RDT MSR interface over the simulated machine (docs/ARCHITECTURE.md "The seams"), for the MSR backend.
/// Implements IA32_PQR_ASSOC, IA32_QM_EVTSEL, IA32_QM_CTR, IA32_L3_MASK_n, IA32_L2_MASK_n, IA32_L3_QOS_CFG,
/// IA32_L2_QOS_CFG, IA32_L2_QoS_Ext_BW_Thrtl_n and IA32_QoS_Core_BW_Thrtl_n with their reset values, the CDP
/// re-indexing of Table 20-19 (mask 2n = CLOS n data, 2n+1 = CLOS n code), and #GP(0) exactly where 20.18.8.1,
/// 20.19.2, 20.19.5, 20.19.6.3, 20.19.7.2 and 20.19.8.3 say. A #GP(0) is returned as an Error with code EIO (what
/// the Linux msr driver returns) whose message names the rule. Any other MSR number #GPs ("not implemented").
/// Scope: PQR_ASSOC, QM_EVTSEL and CBA per logical CPU; L3 masks, L3_QOS_CFG and MBA per L3 domain (socket);
/// L2 masks and L2_QOS_CFG per core. Thread-safe (takes the machine's mutex).
class SimMsrSpace final : public MsrSpace {
public:
    explicit SimMsrSpace(SimMachine& machine);
    Result<std::uint64_t> read(unsigned cpu, std::uint32_t msr) override;
    Status write(unsigned cpu, std::uint32_t msr, std::uint64_t value) override;
    unsigned cpuCount() const override { return m_machine.cpuCount(); }
    std::string describe() const override;

    /// Field widths of IA32_PQR_ASSOC (20.18.6, 20.19.4.4): Ceil(Log2(1 + max)).
    unsigned rmidWidth() const;
    unsigned closWidth() const;

private:
    Error gp(unsigned cpu, std::uint32_t msr, bool write, const std::string& rule) const;
    Status writePqr(unsigned cpu, std::uint64_t value); ///< caller holds the machine's mutex
    SimMachine& m_machine;
    std::vector<std::uint64_t> m_evtsel; ///< IA32_QM_EVTSEL per logical CPU
    /// MBM wrap count seen at the last IA32_QM_CTR read, for the overflow bit that "resets upon read".
    std::map<std::tuple<unsigned, std::uint32_t, std::uint32_t>, std::uint64_t> m_wrapsAtRead;
};

} // namespace rdt::sim

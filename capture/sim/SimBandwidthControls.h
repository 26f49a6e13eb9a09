// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimConfig.h"
#include "SimResctrlTypes.h"
#include "core/Result.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace rdt::sim {

/// The simulated kernel's bandwidth controls beyond MB (docs/RESCTRL.md "Dialects"): RISC-V CBQRI's MB_MIN
/// (reserved bandwidth blocks whose sum over the control groups stays within the controller's budget, MRBWB) and
/// MB_WGHT (0..255, 0 = no share of the unreserved bandwidth), and region-aware MB_REGION<n>_{MIN,OPT,MAX}; their
/// values per domain and CLOSID, their rules, a new group's values, and the info/<dir>/resource_schemata/<control>/
/// descriptions of the 2026 "Generic schema description" RFC for every control of the dialect.
/// The machine model does not act on these values (the simulated memory bandwidth follows MB alone): they are kept,
/// validated and read back as the kernel does.
class SimBandwidthControls {
public:
    /// CBQRI: the blocks all groups may reserve per controller (MRBWB), as in the CBQRI resctrl prototype's QEMU
    /// device (819).
    static constexpr std::uint32_t kReservationBudget = 819;
    /// Region-aware bounds take 1..511 (0x1FF, the range pqos 26.03 writes); two regions are simulated.
    static constexpr std::uint32_t kRegionMax = 511;
    static constexpr int kRegions = 2;

    /// `domains`: the L3 domains (CBQRI's controllers and the regions' domains); `numClosid`: the CLOSIDs the controls
    /// have (the L3's).
    SimBandwidthControls(ResctrlDialect dialect, unsigned domains, std::uint32_t numClosid);

    /// The schemata lines the dialect adds, in schemata order.
    std::vector<Schema> schemas() const;
    std::uint32_t value(const Schema& s, unsigned domain, std::uint32_t closid) const;
    /// Why `value` cannot be written for `closid` in `domain` (the status text), or "" when it can. `used` marks the
    /// CLOSIDs of existing groups (MB_MIN's budget counts theirs).
    std::string check(const Schema& s, unsigned domain, std::uint32_t closid, unsigned long long value,
        const std::vector<bool>& used) const;
    void set(const Schema& s, unsigned domain, std::uint32_t closid, std::uint32_t value);
    /// mkdir: a new group's values (MB_MIN's least, 1 block); the status text when MB_MIN's budget has no block
    /// left in some domain (the group is then not made), else "".
    std::string initGroup(const std::vector<Schema>& schemas, std::uint32_t closid, const std::vector<bool>& used);

    /// info/<dir>/resource_schemata/: the controls described there ("" = none).
    std::vector<std::string> describedControls(const std::string& infoDir) const;
    /// info/<dir>/resource_schemata/<control>/<file> (type, min, max, resolution, scale, unit, scope, tolerance).
    Result<std::string> describe(const std::string& control, const std::string& file) const;
    /// info/MB_MIN and info/MB_WGHT's own files (num_closids aside): min_bandwidth, bandwidth_gran.
    std::vector<std::string> legacyFiles(const Schema& s) const;
    Result<std::string> readLegacy(const Schema& s, const std::string& file) const;

private:
    std::uint32_t defaultValue(const Schema& s, std::uint32_t closid) const;

    ResctrlDialect m_dialect;
    unsigned m_domains;
    std::uint32_t m_numClosid;
    std::map<std::tuple<std::string, unsigned, std::uint32_t>, std::uint32_t> m_values;
};

} // namespace rdt::sim

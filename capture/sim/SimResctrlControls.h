// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ResctrlMountOptions.h"
#include "SimBandwidthControls.h"
#include "SimCmdStatus.h"
#include "SimResctrlTypes.h"
#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rdt::sim {

class SimMachine;
class SimResctrlGroups;
struct CatCaps;

/// The emulated kernel's allocation controls (fs/resctrl/ctrlmondata.c, rdtgroup.c): the schemata resources a mount
/// has (schemata_list_create), each group's schemata and size files parsed and validated with the kernel's rules and
/// status texts and written to the machine's masks and delays, its mode, bit_usage, and a new group's initial
/// allocation (__init_one_rdt_domain). The dialect's other bandwidth controls (CBQRI, region-aware) are
/// SimBandwidthControls'; Arm MPAM hides MB while CDP is on.
class SimResctrlControls {
public:
    SimResctrlControls(
        SimMachine& machine, const ResctrlMountOptions& options, const SimResctrlGroups& groups, SimCmdStatus& status);

    /// At mount: the resources in schemata order, L3 (CODE before DATA), L2, MB.
    void init();
    const std::vector<Schema>& schemas() const { return m_schemas; }
    bool allocation() const { return !m_schemas.empty(); }
    /// The CLOSIDs every resource has: the fewest of any (0 without allocation).
    std::uint32_t closidsSupported() const;
    std::string formatSchemata(const ResctrlGroup& g, bool size) const;
    Status writeSchemata(ResctrlGroup& g, const std::string& data);
    Status writeMode(ResctrlGroup& g, const std::string& data);
    std::string bitUsage(const Schema& s) const;
    Status initAllocation(ResctrlGroup& g);
    const CatCaps& catOf(const Schema& s) const;
    const SimBandwidthControls& bandwidthControls() const { return m_bandwidth; }

private:
    unsigned domainCount(const Schema& s) const;
    std::uint32_t ctrlValue(const Schema& s, unsigned domain, std::uint32_t closid) const;
    void setCtrlValue(const Schema& s, unsigned domain, std::uint32_t closid, std::uint32_t value);
    bool cbmOverlaps(const Schema& s, unsigned domain, std::uint32_t cbm, std::uint32_t closid, bool exclusive) const;

    SimMachine& m_machine;
    const ResctrlMountOptions& m_options;
    const SimResctrlGroups& m_groups;
    SimCmdStatus& m_status;
    std::vector<Schema> m_schemas;
    SimBandwidthControls m_bandwidth;
};

} // namespace rdt::sim

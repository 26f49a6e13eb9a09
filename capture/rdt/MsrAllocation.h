// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrGroupTable.h"
#include "MsrRdtEnumeration.h"
#include "MsrTopology.h"
#include "RdtBackend.h"
#include "platform/MsrSpace.h"

#include <cstdint>
#include <string>

namespace rdt {

/// The MSR backend's allocation controls (SDM 20.19): cache masks (with CDP's code/data pairs), MBA delays and CBA
/// packed levels of a group's CLOS, read and written as schemata with every write read back and a failed change
/// rolled back whole; and the CDP enable/disable sequence (20.19.6.2). Callers hold MsrBackend's mutex.
class MsrAllocation {
public:
    MsrAllocation(
        MsrSpace& msrs, const MsrRdtEnumeration& enumeration, const MsrTopology& topology, MsrGroupTable& table);

    Result<Schemata> readSchemata(const std::string& path);
    Status applySchemata(const std::string& path, const Schemata& change);
    /// Fails when groups beyond the CDP CLOS range exist.
    Status setCdp(const std::string& level, bool enable);

private:
    /// The mask MSR of a cache resource's CLOS (Table 20-19 under CDP).
    std::uint32_t maskMsr(const std::string& resource, unsigned clos) const;
    Capabilities capabilities() const;

    MsrSpace& m_msrs;
    const MsrRdtEnumeration& m_enum;
    const MsrTopology& m_topology;
    MsrGroupTable& m_table;
};

} // namespace rdt

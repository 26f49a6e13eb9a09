// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrGroupTable.h"

namespace rdt {

Error MsrGroupTable::rollBack(Error e, MsrUndoLog& log, Snapshot saved)
{
    groups = std::move(saved.groups);
    freeRmids = std::move(saved.freeRmids);
    limbo = std::move(saved.limbo);
    cdpL3 = saved.cdpL3;
    cdpL2 = saved.cdpL2;
    const auto outcome = log.rollback();
    e.message += "; " + outcome.text;
    if (!outcome.ok)
        e.advice = "the hardware is in a mixed state: the registers named above still hold the new values; "
                   "retry, or reset them by hand with wrmsr (or reboot)";
    return e;
}

MsrGroup* MsrGroupTable::find(const std::string& path)
{
    for (auto& g : groups)
        if (g.path == path) return &g;
    return nullptr;
}

std::vector<GroupInfo> MsrGroupTable::list() const
{
    std::vector<GroupInfo> out;
    for (const auto& g : groups) {
        GroupInfo i;
        i.path = g.path;
        const auto slash = g.path.rfind('/');
        i.name = slash == std::string::npos ? g.path : g.path.substr(slash + 1);
        i.isControl = g.isControl;
        i.parent = g.parent;
        i.mode = g.isControl ? "shareable" : "";
        i.closid = static_cast<int>(g.clos);
        i.rmid = static_cast<int>(g.rmid);
        out.push_back(std::move(i));
    }
    return out;
}

void MsrGroupTable::releaseRmid(unsigned rmid)
{
    if (rmid != 0) limbo.insert(rmid); // lines tagged with it are still cached: not reusable until they drain
}

std::uint64_t MsrGroupTable::assocValue(unsigned cpu) const
{
    unsigned clos = 0, rmid = 0;
    for (const auto& g : groups)
        if (g.isControl && g.cpus.count(cpu)) {
            clos = g.clos;
            rmid = g.rmid;
        }
    for (const auto& g : groups)
        if (!g.isControl && g.cpus.count(cpu)) rmid = g.rmid;
    return (std::uint64_t(clos) << 32) | rmid;
}

} // namespace rdt

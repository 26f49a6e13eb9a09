// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlCounterReader.h"

#include "GroupNames.h"
#include "RootLock.h"
#include "Sample.h"
#include "Telemetry.h"
#include "core/DescriptorLimit.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <unistd.h>

namespace rdt {

namespace {

const char* const kEventFiles[3] = { "llc_occupancy", "mbm_total_bytes", "mbm_local_bytes" };

/// The counter files kept open: a quarter of the soft descriptor limit (the rest is the process's: sessions,
/// perf events, sockets), at most 16384. 400 groups on 4 domains need 4,800; with the default limit of 1024, 256
/// stay open and the other groups' files are opened for each read.
std::size_t keptFdBudget()
{
    return static_cast<std::size_t>(std::min<std::uint64_t>(descriptorLimit() / 4, 16384));
}

std::string domainDir(int id)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "mon_L3_%02d", id);
    return buf;
}

std::string nodeDir(int id)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "mon_sub_L3_%02d", id);
    return buf;
}

/// The SNC nodes of an L3 domain (MonitorCaps::subDomains); null without SNC.
const std::vector<int>* nodesOf(const MonitorCaps& mon, int domain)
{
    for (const auto& [l3, nodes] : mon.subDomains)
        if (l3 == domain && !nodes.empty()) return &nodes;
    return nullptr;
}

/// One mon_data file's content -> value or flag (KDOC: "Error", "Unavailable", "Unassigned").
std::uint64_t parseEvent(const Result<std::string>& r, std::uint32_t& flags, std::uint32_t errorFlag,
    std::uint32_t unavailableFlag, std::uint32_t unassignedFlag)
{
    if (!r) {
        const int code = r.error().code;
        flags |= code == EIO ? errorFlag : code == ENOENT && unassignedFlag ? unassignedFlag : unavailableFlag;
        return 0;
    }
    const auto t = trim(*r);
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (!t.empty() && ec == std::errc() && p == t.data() + t.size()) return v;
    if (t == "Error")
        flags |= errorFlag;
    else if (t == "Unassigned" && unassignedFlag)
        flags |= unassignedFlag;
    else
        flags |= unavailableFlag; // "Unavailable" and anything we cannot read as a number
    return 0;
}

} // namespace

ResctrlCounterReader::ResctrlCounterReader(ResctrlTree& tree)
    : m_tree(tree)
{ }

std::vector<Result<GroupCounters>> ResctrlCounterReader::read(
    const std::vector<std::string>& paths, const Result<Capabilities>& caps)
{
    std::vector<Result<GroupCounters>> out;
    out.reserve(paths.size());
    if (!caps) {
        for (std::size_t i = 0; i < paths.size(); ++i)
            out.emplace_back(caps.error());
        return out;
    }
    RootLock rl(m_tree.fs(), false, m_tree.changeDepth()); // one shared lock for the whole poll
    for (const auto& p : paths)
        out.push_back(readLocked(p, *caps));
    return out;
}

void ResctrlCounterReader::forgetGroupTree(const std::string& path)
{
    for (auto it = m_counterFds.begin(); it != m_counterFds.end();) {
        if (it->first == path || it->first.rfind(path + "/", 0) == 0) {
            m_keptFds -= it->second.size();
            it = m_counterFds.erase(it);
        } else {
            ++it;
        }
    }
}

std::vector<UniqueFd>* ResctrlCounterReader::counterFds(const std::string& group, const Capabilities& caps)
{
    if (!m_pollFds) return nullptr;
    auto it = m_counterFds.find(group);
    if (it != m_counterFds.end()) return &it->second;
    const std::size_t needed = caps.monitoring.domains.size() * 3;
    if (m_keptFds + needed > keptFdBudget()) return nullptr; // beyond the budget: read() opens and closes
    std::vector<UniqueFd> fds;
    fds.reserve(needed);
    const std::string base = m_tree.join(group, "mon_data/");
    for (int d : caps.monitoring.domains) {
        for (const char* e : kEventFiles) {
            auto fd = m_tree.fs().openForPolling(base + domainDir(d) + "/" + e);
            if (!fd && fd.error().code == ENOTSUP) {
                m_pollFds = false; // this Fs has no descriptors (the simulated kernel): read() every time
                return nullptr;
            }
            // Out of descriptors after all (someone else in the process holds many): keep none for this group.
            if (!fd && (fd.error().code == EMFILE || fd.error().code == ENFILE)) return nullptr;
            fds.push_back(fd ? std::move(*fd) : UniqueFd()); // a missing file is retried through read()
        }
    }
    m_keptFds += fds.size();
    return &m_counterFds.emplace(group, std::move(fds)).first->second;
}

void ResctrlCounterReader::dropCounterFds(const std::string& group)
{
    auto it = m_counterFds.find(group);
    if (it == m_counterFds.end()) return;
    m_keptFds -= it->second.size();
    m_counterFds.erase(it);
}

Result<GroupCounters> ResctrlCounterReader::readLocked(const std::string& path, const Capabilities& caps)
{
    const auto& mon = caps.monitoring;
    if (!mon.present)
        return errnoError(ENOENT, "no monitoring in " + m_tree.fs().describe() + " (no info/L3_MON)",
            "the CPU or kernel lacks CMT/MBM (CPUID.07H.00H:EBX[12])");
    if (auto valid = checkGroupPath(path); !valid) return valid.error();
    auto missingGroup = [&]() -> Result<GroupCounters> {
        return errnoError(
            ENOENT, "no group '" + path + "' in " + m_tree.fs().describe(), "list groups with `groups list`");
    };
    // A stat per group per poll is measurable at 64 groups: with kept-open fds, only ask whether the group
    // exists when its files are not all readable.
    std::vector<UniqueFd>* fds = counterFds(path, caps);
    if (!fds && !path.empty() && !m_tree.fs().isDirectory(path)) return missingGroup();
    bool dropFds = false;
    const std::string base = m_tree.join(path, "mon_data/");
    auto readOne = [&](std::size_t index, int domain, int event) -> Result<std::string> {
        if (fds && index < fds->size() && (*fds)[index]) {
            char buf[128];
            const ssize_t n = ::pread((*fds)[index].get(), buf, sizeof buf, 0);
            if (n >= 0) return std::string(buf, static_cast<std::size_t>(n));
            dropFds = true; // e.g. ENODEV: the group was removed and maybe re-created; reopen next poll
        }
        return m_tree.fs().read(base + domainDir(domain) + "/" + kEventFiles[event]);
    };
    const bool enabled[3] = { mon.llcOccupancy, mon.mbmTotal, mon.mbmLocal };
    // Each file its own flags: one missing mbm_local_bytes leaves the occupancy and the total known.
    const std::uint32_t errorFlag[3] = { SampleOccupancyError, SampleMbmError, SampleMbmLocalError };
    const std::uint32_t unavailableFlag[3]
        = { SampleOccupancyUnavailable, SampleMbmUnavailable, SampleMbmLocalUnavailable };
    const std::uint32_t unassignedFlag[3] = { 0, SampleMbmUnassigned, SampleMbmLocalUnassigned };
    const std::uint32_t absentFlag[3] = { SampleOccupancyAbsent, SampleMbmTotalAbsent, SampleMbmLocalAbsent };
    GroupCounters out;
    out.group = path;
    out.domains.reserve(mon.domains.size());
    // One reading of a domain (node -1) or of one of its SNC nodes.
    auto reading = [&](std::size_t di, int node) {
        CounterReading c;
        c.domain = mon.domains[di];
        c.node = node;
        std::uint64_t values[3] = { 0, 0, 0 };
        for (int e = 0; e < 3; ++e) {
            if (!enabled[e]) {
                c.flags |= absentFlag[e]; // a counter the machine does not have: unknown, not 0
                continue;
            }
            auto r = node < 0
                ? readOne(di * 3 + static_cast<std::size_t>(e), c.domain, e)
                : m_tree.fs().read(base + domainDir(c.domain) + "/" + nodeDir(node) + "/" + kEventFiles[e]);
            values[e] = parseEvent(r, c.flags, errorFlag[e], unavailableFlag[e], unassignedFlag[e]);
        }
        c.occupancyBytes = values[0];
        c.mbmTotalRaw = values[1];
        c.mbmLocalRaw = values[2];
        out.domains.push_back(c);
    };
    for (std::size_t di = 0; di < mon.domains.size(); ++di) {
        const auto* nodes = m_sncNodes ? nodesOf(mon, mon.domains[di]) : nullptr;
        if (!nodes) {
            reading(di, -1);
            continue;
        }
        for (int node : *nodes)
            reading(di, node);
    }
    // PERF_PKG_MON: every listed event of every package (few files, read through the Fs each poll).
    const auto& tel = caps.telemetry;
    if (tel.present) {
        out.telemetry.reserve(tel.domains.size() * tel.features.size());
        for (int pkg : tel.domains) {
            const std::string dir = base + telemetryDomainDir(pkg) + "/";
            for (const auto& event : tel.features) {
                TelemetryReading t;
                t.package = pkg;
                t.event = event;
                auto r = m_tree.fs().read(dir + event);
                const auto v = r ? parseTelemetryValue(*r) : TelemetryValue { 0, r.error().code == EIO, true };
                if (v.error)
                    t.flags |= SampleTelemetryError;
                else if (v.unavailable)
                    t.flags |= SampleTelemetryUnavailable;
                t.value = v.ok() ? v.value : 0;
                out.telemetry.push_back(std::move(t));
            }
        }
    }
    if (dropFds) dropCounterFds(path);
    if (fds && !path.empty()) {
        // A removed group makes every read fail; only then is the stat worth it.
        const bool allFlagged = !out.domains.empty()
            && std::all_of(
                out.domains.begin(), out.domains.end(), [](const CounterReading& c) { return c.flags != 0; });
        if (allFlagged && !m_tree.fs().isDirectory(path)) {
            dropCounterFds(path);
            return missingGroup();
        }
    }
    return out;
}

} // namespace rdt

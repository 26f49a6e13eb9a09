// SPDX-License-Identifier: GPL-3.0-or-later
#include "CgroupTma.h"

#include "KubernetesLabels.h"
#include "pmu/Tma.h"

#include <algorithm>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace rdt::metrics {

namespace {
bool hasController(std::string_view list, std::string_view name)
{
    for (std::size_t at = 0; at <= list.size();) {
        const auto end = std::min(list.find(',', at), list.size());
        if (list.substr(at, end - at) == name) return true;
        at = end + 1;
    }
    return false;
}
} // namespace

std::optional<std::string> podCgroupDir(std::string_view text)
{
    // Each line is "hierarchy-ID:controller-list:cgroup-path" (Documentation/admin-guide/cgroup-v1/cgroups.rst);
    // cgroup v2's is "0::PATH" (Documentation/admin-guide/cgroup-v2.rst, "/proc/$PID/cgroup"). A controller is
    // bound to one hierarchy at a time, so when perf_event is on a v1 hierarchy (a v1 or hybrid node) that
    // hierarchy is the one perf counts in, mounted as /sys/fs/cgroup/perf_event; otherwise the v2 directory.
    std::optional<std::string_view> v2;
    for (std::size_t at = 0; at < text.size();) {
        const auto end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        const auto c1 = line.find(':');
        const auto c2 = c1 == std::string_view::npos ? c1 : line.find(':', c1 + 1);
        if (c2 == std::string_view::npos) continue;
        const std::string_view controllers = line.substr(c1 + 1, c2 - c1 - 1);
        const std::string_view path = line.substr(c2 + 1);
        if (hasController(controllers, "perf_event")) {
            const auto pod = podDirEnd(path);
            if (!pod) return std::nullopt; // perf counts in this hierarchy, and the task is not in a pod there
            return "/" + std::string(controllers) + std::string(path.substr(0, *pod));
        }
        if (line.rfind("0::", 0) == 0) v2 = path;
    }
    if (!v2) return std::nullopt;
    const auto pod = podDirEnd(*v2);
    if (!pod) return std::nullopt;
    return std::string(v2->substr(0, *pod));
}

CgroupTmaCounter::CgroupTmaCounter(std::unique_ptr<pmu::PerfSyscalls> sys, pmu::Recipe recipe, std::string cgroupRoot)
    : m_sys(std::move(sys))
    , m_recipe(std::move(recipe))
    , m_root(std::move(cgroupRoot))
{ }

CgroupTmaCounter::~CgroupTmaCounter()
{
    retain({});
}

Result<TmaSlots> CgroupTmaCounter::count(const std::string& cgroupDir)
{
    auto it = m_cgroups.find(cgroupDir);
    if (it == m_cgroups.end()) {
        const std::string path = m_root + cgroupDir;
        const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
            return errnoError(errno, "cannot open the cgroup " + path,
                "is the cgroup file system mounted there (v2, or v1 with its perf_event hierarchy)?");
        pmu::PerfTarget target;
        target.cgroupFd = fd;
        auto session = pmu::PerfSession::open(*m_sys, m_recipe, target, 1);
        if (session)
            if (auto st = (*session)->start(); !st) session = st.error();
        if (!session) {
            ::close(fd);
            return session.error();
        }
        it = m_cgroups.emplace(cgroupDir, Counted { fd, std::move(*session) }).first;
    }
    // Each read is cumulative since start() (the counters are never reset), so the slots are too.
    auto read = it->second.session->readGroups();
    if (!read) return read.error();
    const pmu::TmaBreakdown tma = pmu::tmaFromGroupRead(m_recipe, *read);
    if (!tma.valid) return makeError("no TMA slots counted yet for the cgroup " + cgroupDir + ": " + tma.note);
    const auto& l1 = tma.level1;
    return TmaSlots { tma.slots * l1.frontendBound, tma.slots * l1.badSpeculation, tma.slots * l1.retiring,
        tma.slots * l1.backendBound };
}

void CgroupTmaCounter::retain(const std::map<std::string, bool>& keep)
{
    for (auto it = m_cgroups.begin(); it != m_cgroups.end();) {
        if (keep.contains(it->first)) {
            ++it;
            continue;
        }
        it->second.session.reset(); // the events go before the directory they count
        ::close(it->second.dirFd);
        it = m_cgroups.erase(it);
    }
}

} // namespace rdt::metrics

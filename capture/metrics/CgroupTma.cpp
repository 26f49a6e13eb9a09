// SPDX-License-Identifier: GPL-3.0-or-later
#include "CgroupTma.h"

#include "KubernetesLabels.h"
#include "pmu/Tma.h"

#include <algorithm>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace rdt::metrics {

std::optional<std::string> podCgroupDir(std::string_view text)
{
    // cgroup v2's single line is "0::PATH" (Documentation/admin-guide/cgroup-v2.rst, "/proc/$PID/cgroup").
    for (std::size_t at = 0; at < text.size();) {
        const auto end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (line.rfind("0::", 0) != 0) continue;
        const std::string_view path = line.substr(3);
        const auto pod = podDirEnd(path);
        if (!pod) return std::nullopt;
        return std::string(path.substr(0, *pod));
    }
    return std::nullopt;
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
        if (fd < 0) return errnoError(errno, "cannot open the cgroup " + path, "is cgroup v2 mounted there?");
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

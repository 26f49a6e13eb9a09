// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfSession.h"

#include "Tma.h"
#include "core/IdList.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <linux/perf_event.h>
#include <unistd.h>

namespace rdt::pmu {

namespace {

std::vector<int> onlineCpus()
{
    std::vector<int> cpus;
    std::ifstream in("/sys/devices/system/cpu/online");
    std::string list;
    if (in >> list)
        if (auto parsed = parseIdList(list, kernelCpuBound())) cpus.assign(parsed->begin(), parsed->end());
    if (cpus.empty())
        for (long c = 0; c < ::sysconf(_SC_NPROCESSORS_ONLN); ++c)
            cpus.push_back(static_cast<int>(c));
    return cpus;
}

std::vector<pid_t> threadsOf(pid_t pid)
{
    std::vector<pid_t> tids;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec))
        tids.push_back(static_cast<pid_t>(std::atoi(e.path().filename().c_str())));
    if (tids.empty()) tids.push_back(pid); // let perf_event_open report ESRCH
    return tids;
}

/// The recipe's CPUs among the online ones (hybrid parts: the core PMU's own CPUs, as perf intersects an evsel's
/// PMU cpus with the online map), or every online CPU.
std::vector<int> recipeCpus(const Recipe& recipe)
{
    std::vector<int> online = onlineCpus();
    if (recipe.cpus.empty()) return online;
    std::vector<int> out;
    for (int c : online)
        if (std::find(recipe.cpus.begin(), recipe.cpus.end(), c) != recipe.cpus.end()) out.push_back(c);
    return out;
}

/// The event string with its ":precise=N" modifier set to `p`, or dropped when p < 0 (names follow the attr).
std::string withPrecise(const std::string& name, int p)
{
    const auto at = name.find(":precise=");
    if (at == std::string::npos) return name;
    auto end = name.find(':', at + 1);
    if (end == std::string::npos) end = name.size();
    return name.substr(0, at) + (p < 0 ? std::string {} : ":precise=" + std::to_string(p)) + name.substr(end);
}

} // namespace

Result<std::unique_ptr<PerfSession>> PerfSession::open(
    PerfSyscalls& sys, const Recipe& recipe, const PerfTarget& target, std::size_t ringPages)
{
    const bool launched = target.workload || !target.command.empty();
    const int kinds = (target.pids.empty() ? 0 : 1) + (launched ? 1 : 0) + (target.systemWide ? 1 : 0)
        + (target.cgroupFd >= 0 ? 1 : 0);
    if (kinds != 1)
        return makeError("a perf capture needs exactly one target: --pid, a command after --, system-wide or a cgroup");
    if (recipe.events.empty()) return makeError("empty recipe");
    if (ringPages == 0 || (ringPages & (ringPages - 1)) != 0)
        return makeError("ring size must be a power of two pages");
    std::unique_ptr<PerfSession> s(new PerfSession(sys, recipe));
    s->m_ids.resize(recipe.events.size());
    for (const auto& e : recipe.events)
        s->m_requestedPrecise.push_back(e.attr.preciseIp());
    // The kernel refuses to mmap an inherited per-task event that is not bound to a CPU ("all children writing to
    // the same rb", kernel/events/core.c perf_mmap), so sampling a task and its children opens it once per CPU, as
    // perf record does. Counting groups stay per task (inherit is off for group reads).
    // Hybrid parts: per-CPU events only on the recipe's core PMU's CPUs; a per-task counting group (cpu -1) is
    // counted by the kernel only while the task runs on that PMU's CPUs.
    const std::vector<int> pmuCpus = recipeCpus(recipe);
    if (pmuCpus.empty())
        return makeError(
            "no online CPU belongs to " + (recipe.pmuName.empty() ? std::string("the core PMU") : recipe.pmuName),
            "bring one of its CPUs online (/sys/devices/system/cpu/cpuN/online)");
    const std::vector<int> cpus = recipe.sampling ? pmuCpus : std::vector<int> { -1 };
    if (launched) {
        if (target.workload) {
            if (target.workload->started())
                return makeError("the launched command has already started",
                    "open every session on a Workload before starting any of them (enable_on_exec)");
            s->m_workload = target.workload;
        } else {
            auto w = Workload::prepare(target.command);
            if (!w) return w.error();
            s->m_workload = std::move(w.value());
        }
        for (int cpu : cpus)
            if (auto st = s->openGroup(s->m_workload->pid(), cpu, true, ringPages); !st)
                return st.error(); // the last owner of the workload releases the corked child, which exits
    } else if (!target.pids.empty()) {
        for (pid_t pid : target.pids)
            for (pid_t tid : threadsOf(pid))
                for (int cpu : cpus)
                    if (auto st = s->openGroup(tid, cpu, false, ringPages); !st) return st.error();
    } else if (target.cgroupFd >= 0) {
        for (int cpu : pmuCpus)
            if (auto st = s->openGroup(target.cgroupFd, cpu, false, ringPages, PERF_FLAG_PID_CGROUP); !st)
                return st.error();
    } else {
        for (int cpu : pmuCpus)
            if (auto st = s->openGroup(-1, cpu, false, ringPages); !st) return st.error();
    }
    for (std::size_t i = 0; i < recipe.events.size(); ++i)
        s->m_decoder.addEvent(s->m_recipe.events[i].attr, s->m_ids[i]); // with the precise_ip actually used
    return s;
}

Status PerfSession::openGroup(pid_t pid, int cpu, bool enableOnExec, std::size_t ringPages, unsigned long flags)
{
    const bool cpuWide = pid == -1 || (flags & PERF_FLAG_PID_CGROUP); // a cgroup's events count on one CPU each
    const PerfEnvironment env = m_sys.environment();
    Group g;
    for (std::size_t i = 0; i < m_recipe.events.size(); ++i) {
        const RecipeEvent& e = m_recipe.events[i];
        EventAttr attr = e.attr;
        if (i == 0) {
            attr.setFlag(EventAttr::FlagDisabled, true);
            attr.setFlag(EventAttr::FlagEnableOnExec, enableOnExec);
        } else {
            attr.setFlag(EventAttr::FlagDisabled, false); // members follow the leader
        }
        if (cpuWide) attr.setFlag(1, false); // no inherit for per-CPU events (system-wide or a cgroup's)
        const int groupFd = i == 0 ? -1 : g.fds[0].get();
        auto fd = m_sys.open(attr, pid, cpu, groupFd, PERF_FLAG_FD_CLOEXEC | flags);
        // perf's precise_ip fallback (tools/perf/util/evsel.c evsel__precise_ip_fallback): a PMU that cannot give
        // the skid asked for refuses the attr; retry one lower, down to what the recipe still accepts.
        while (
            !fd && (fd.error().code == EOPNOTSUPP || fd.error().code == EINVAL) && attr.preciseIp() > e.minPreciseIp) {
            attr.setPreciseIp(attr.preciseIp() - 1);
            fd = m_sys.open(attr, pid, cpu, groupFd, PERF_FLAG_FD_CLOEXEC | flags);
        }
        if (!fd) {
            Error err = openAdvice(fd.error().code, attr, e.name, env, cpuWide);
            if (attr.preciseIp() != m_requestedPrecise[i])
                err.advice += " (refused with every precise_ip from " + std::to_string(m_requestedPrecise[i])
                    + " down to " + std::to_string(attr.preciseIp()) + ")";
            return err;
        }
        if (attr.preciseIp() != m_recipe.events[i].attr.preciseIp()) {
            // The next targets (threads, CPUs) start from the value that worked, as perf keeps the lowered attr.
            RecipeEvent& opened = m_recipe.events[i];
            const unsigned used = attr.preciseIp(), asked = m_requestedPrecise[i];
            opened.attr.setPreciseIp(used);
            opened.name = withPrecise(opened.name, static_cast<int>(used));
            opened.fstr = withPrecise(opened.fstr, static_cast<int>(used));
            m_notes.push_back("precise_ip lowered to " + std::to_string(used) + " for " + withPrecise(opened.name, -1)
                + ": the PMU refused " + std::to_string(used + 1)
                + (asked > used + 1 ? " (asked for " + std::to_string(asked) + ")" : "")
                + (used == 0 ? "; samples have skid" : ""));
        }
        std::uint64_t id = 0;
        if (auto st = m_sys.ioctl(fd->get(), PERF_EVENT_IOC_ID, reinterpret_cast<unsigned long>(&id)); st)
            m_ids[i].push_back(id);
        g.fds.push_back(std::move(*fd));
    }
    if (m_recipe.sampling) {
        const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        auto map = m_sys.mmap(g.fds[0].get(), (1 + ringPages) * page);
        if (!map) return map.error();
        auto view = RingReader::viewOfMapping(map->data(), map->size(), page);
        if (!view) return view.error();
        auto reader = RingReader::create(*view);
        if (!reader) return reader.error();
        for (std::size_t i = 1; i < g.fds.size(); ++i)
            if (m_recipe.events[i].attr.samplePeriod != 0)
                if (auto st = m_sys.ioctl(
                        g.fds[i].get(), PERF_EVENT_IOC_SET_OUTPUT, static_cast<unsigned long>(g.fds[0].get()));
                    !st)
                    return st.error();
        m_rings.push_back(Ring { std::move(*map), std::make_unique<RingReader>(std::move(*reader)) });
    }
    m_groups.push_back(std::move(g));
    return {};
}

Status PerfSession::start()
{
    if (m_workload) return m_workload->start(); // enable_on_exec: the kernel enables the events at exec
    for (auto& g : m_groups)
        if (auto st = m_sys.ioctl(g.fds[0].get(), PERF_EVENT_IOC_ENABLE, 0); !st) return st;
    return {};
}

Status PerfSession::stop()
{
    for (auto& g : m_groups)
        if (auto st = m_sys.ioctl(g.fds[0].get(), PERF_EVENT_IOC_DISABLE, 0); !st) return st;
    return {};
}

RingStats PerfSession::ringStats() const
{
    RingStats sum;
    for (const auto& r : m_rings) {
        const RingStats& s = r.reader->stats();
        sum.records += s.records;
        sum.bytes += s.bytes;
        sum.samples += s.samples;
        sum.straddled += s.straddled;
        sum.lostRecords += s.lostRecords;
        sum.lostEvents += s.lostEvents;
        sum.lostSamples += s.lostSamples;
        sum.throttles += s.throttles;
        sum.unthrottles += s.unthrottles;
        sum.overruns += s.overruns;
        sum.overrunBytes += s.overrunBytes;
        sum.corrupt += s.corrupt;
    }
    return sum;
}

bool PerfSession::isSampleRecord(std::span<const std::byte> record)
{
    std::uint32_t type = 0;
    if (record.size() >= sizeof type) std::memcpy(&type, record.data(), sizeof type);
    return type == perf::RecordSample;
}

std::span<const std::byte> PerfSession::heldRecordAt(std::size_t offset) const
{
    // Only whole records with a valid header size were copied in (RingReader checked each one).
    std::uint16_t size = 0;
    std::memcpy(&size, m_heldSamples.data() + offset + 6, sizeof size);
    return { m_heldSamples.data() + offset, size };
}

bool PerfSession::decodeInto(std::span<const std::byte> record)
{
    if (m_decoder.decode(record, m_scratch)) return true;
    ++m_decodeErrors;
    return false;
}

Result<ReadData> PerfSession::readGroups()
{
    ReadData total;
    total.values.resize(m_recipe.events.size());
    const std::uint64_t fmt = m_recipe.events[0].attr.readFormat;
    std::vector<std::byte> buf(8 * (3 + 3 * m_recipe.events.size()));
    for (auto& g : m_groups) {
        auto n = m_sys.read(g.fds[0].get(), buf);
        if (!n) return n.error();
        auto r = parseReadFormat(std::span<const std::byte>(buf.data(), *n), fmt);
        if (!r) return r.error();
        total.timeEnabled += r->timeEnabled;
        total.timeRunning += r->timeRunning;
        for (std::size_t i = 0; i < r->values.size() && i < total.values.size(); ++i)
            total.values[i].value += r->values[i].value;
    }
    return total;
}

PerfSession::~PerfSession()
{
    m_groups.clear();
    m_rings.clear();
    m_workload.reset(); // the last session on a launched command ends and reaps it
}

Result<std::vector<std::unique_ptr<PerfSession>>> openSessions(
    PerfSyscalls& sys, const std::vector<Recipe>& recipes, const PerfTarget& target, std::size_t ringPages)
{
    PerfTarget t = target;
    if (!t.command.empty() && !t.workload) {
        if (!t.pids.empty() || t.systemWide)
            return makeError("a perf capture needs exactly one target: --pid, a command after --, or system-wide");
        auto w = Workload::prepare(t.command); // one child for every recipe, as perf forks one workload per evlist
        if (!w) return w.error();
        t.workload = std::move(w.value());
        t.command.clear();
    }
    std::vector<std::unique_ptr<PerfSession>> sessions;
    for (const auto& r : recipes) {
        auto s = PerfSession::open(sys, r, t, ringPages);
        if (!s) return s.error(); // t.workload's last owner goes here: the corked child exits without exec
        sessions.push_back(std::move(s.value()));
    }
    return sessions;
}

} // namespace rdt::pmu

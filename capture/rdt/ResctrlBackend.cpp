// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlBackend.h"

#include <cerrno>

namespace rdt {

ResctrlBackend::ResctrlBackend(std::shared_ptr<Fs> fs)
    : m_tree(std::move(fs))
    , m_capabilities(m_tree)
    , m_groups(m_tree)
    , m_membership(m_tree, m_groups)
    , m_schemata(m_tree)
    , m_counters(m_tree)
    , m_mbmEvents(m_tree, m_capabilities)
{ }

Result<std::unique_ptr<ResctrlBackend>> ResctrlBackend::open(std::shared_ptr<Fs> fs)
{
    if (!fs->exists("schemata") && !fs->exists("info") && !fs->exists("tasks"))
        return errnoError(ENOENT, fs->describe() + " is not a resctrl filesystem (no schemata, tasks or info/)",
            "mount it: mount -t resctrl resctrl /sys/fs/resctrl (needs RDT hardware and CONFIG_X86_CPU_RESCTRL)");
    auto b = std::make_unique<ResctrlBackend>(std::move(fs));
    auto caps = b->capabilities();
    if (!caps) return caps.error();
    return b;
}

std::string ResctrlBackend::describe() const
{
    return "resctrl at " + m_tree.describe();
}

Result<Capabilities> ResctrlBackend::capabilities()
{
    std::lock_guard lock(m_mutex);
    return m_capabilities.get();
}

Status ResctrlBackend::beginChange()
{
    m_mutex.lock(); // held until endChange(): the sampler thread waits for the whole transaction
    if (auto l = m_tree.beginChange(); !l) {
        m_mutex.unlock();
        return l;
    }
    return {};
}

void ResctrlBackend::endChange()
{
    m_tree.endChange();
    m_mutex.unlock();
}

Result<std::vector<GroupInfo>> ResctrlBackend::listGroups()
{
    std::lock_guard lock(m_mutex);
    return m_groups.list();
}

Status ResctrlBackend::createControlGroup(const std::string& name)
{
    std::lock_guard lock(m_mutex);
    auto st = m_groups.createControl(name);
    if (st) m_capabilities.forgetCountersOnMkdirRmdir();
    return st;
}

Status ResctrlBackend::createMonitorGroup(const std::string& parent, const std::string& name)
{
    std::lock_guard lock(m_mutex);
    auto st = m_groups.createMonitor(parent, name);
    if (st) m_capabilities.forgetCountersOnMkdirRmdir();
    return st;
}

Status ResctrlBackend::removeGroup(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    auto st = m_groups.remove(path, [&] { m_counters.forgetGroupTree(path); });
    if (st) m_capabilities.forgetCountersOnMkdirRmdir();
    return st;
}

Status ResctrlBackend::assignTasks(const std::string& path, const std::vector<unsigned>& pids)
{
    std::lock_guard lock(m_mutex);
    return m_membership.assignTasks(path, pids);
}

Status ResctrlBackend::assignCpus(const std::string& path, const std::vector<unsigned>& cpus)
{
    std::lock_guard lock(m_mutex);
    return m_membership.assignCpus(path, cpus);
}

Result<std::vector<unsigned>> ResctrlBackend::tasks(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    return m_membership.tasks(path);
}

Result<std::vector<unsigned>> ResctrlBackend::cpus(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    return m_membership.cpus(path);
}

Result<Schemata> ResctrlBackend::readSchemata(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    return m_schemata.read(path);
}

Status ResctrlBackend::applySchemata(const std::string& path, const Schemata& change)
{
    std::lock_guard lock(m_mutex);
    return m_schemata.apply(path, change);
}

void ResctrlBackend::setSncNodeReadings(bool perNode)
{
    std::lock_guard lock(m_mutex);
    m_counters.setSncNodeReadings(perNode);
}

Result<GroupCounters> ResctrlBackend::readCounters(const std::string& path)
{
    auto all = readCountersMany(std::vector<std::string> { path });
    return std::move(all.front());
}

std::vector<Result<GroupCounters>> ResctrlBackend::readCountersMany(const std::vector<std::string>& paths)
{
    std::lock_guard lock(m_mutex);
    return m_counters.read(paths, m_capabilities.get());
}

Result<std::vector<CounterAssignment>> ResctrlBackend::counterAssignments(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    return m_mbmEvents.counterAssignments(path);
}

Status ResctrlBackend::assignCounter(const std::string& path, const std::string& event, int domain, bool assign)
{
    std::lock_guard lock(m_mutex);
    return m_mbmEvents.assignCounter(path, event, domain, assign);
}

Status ResctrlBackend::configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions)
{
    std::lock_guard lock(m_mutex);
    return m_mbmEvents.configureMbmEvent(event, domain, transactions);
}

std::vector<std::string> ResctrlBackend::warnings()
{
    std::lock_guard lock(m_mutex);
    auto out = m_capabilities.warnings();
    for (auto& w : detectOtherRdtUsers(m_tree.fs()))
        out.push_back(std::move(w));
    return out;
}

} // namespace rdt

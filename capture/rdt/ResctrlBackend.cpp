// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlBackend.h"

#include "GroupNames.h"
#include "RootLock.h"
#include "Sample.h"
#include "core/IdList.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace rdt {

namespace {
/// resctrl-specific advice for mkdir failures (docs/RESCTRL.md "Creating and removing groups"), on top of the kernel's
/// status text.
std::string mkdirAdvice(int code, const std::string& fallback)
{
    switch (code) {
    case ENOSPC:
        return "Out of CLOSIDs or RMIDs: remove an unused group first (`groups delete NAME`)";
    case EBUSY:
        return "freed RMIDs are still in limbo (their lines are still cached): wait a few seconds, or raise "
               "info/L3_MON/max_threshold_occupancy";
    case EACCES:
    case EPERM:
        return permissionDeniedAdvice("resctrl needs CAP_SYS_ADMIN") + "; monitor groups go under <group>/mon_groups";
    case EROFS:
        return adviceForErrno(EROFS);
    default:
        return fallback;
    }
}

}

ResctrlBackend::ResctrlBackend(std::shared_ptr<Fs> fs)
    : m_fs(std::move(fs))
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
    return "resctrl at " + m_fs->describe();
}

std::string ResctrlBackend::join(const std::string& group, const std::string& file) const
{
    return group.empty() ? file : group + "/" + file;
}

Result<Capabilities> ResctrlBackend::capabilities()
{
    std::lock_guard lock(m_mutex);
    if (!m_caps) {
        auto c = loadCapabilities();
        if (!c) return c.error();
        m_caps = std::move(*c);
    }
    return *m_caps;
}

Status ResctrlBackend::requireGroup(const std::string& path, bool mustBeControl)
{
    if (auto valid = rdt::checkGroupPath(path); !valid) return valid;
    if (!path.empty() && !m_fs->isDirectory(path))
        return errnoError(ENOENT, "no group '" + path + "' in " + m_fs->describe(), "list groups with `groups list`");
    if (mustBeControl && path.find("mon_groups/") != std::string::npos)
        return errnoError(
            EINVAL, "'" + path + "' is a monitor group: it has no schemata", "change its parent control group instead");
    return {};
}

std::string ResctrlBackend::lastCmdStatus()
{
    auto r = m_fs->read("info/last_cmd_status");
    return r ? std::string(trim(*r)) : std::string {};
}

std::string ResctrlBackend::treeCopyAdvice(const std::string& file) const
{
    return "the group exists but has no " + file + ": a live resctrl mount creates it with the group, so "
        + m_fs->describe() + " is probably a copy of a tree (plain files), not the kernel";
}

Status ResctrlBackend::writeCommand(const std::string& path, std::string data)
{
    if (data.empty() || data.back() != '\n')
        data += '\n'; // the kernel rejects input without a trailing newline, silently (KCTRL parse_line)
    auto w = m_fs->write(path, data);
    if (w) return {};
    Error e = w.error();
    if (e.code == ENOENT) {
        const auto slash = path.rfind('/');
        const auto dir = slash == std::string::npos ? std::string {} : path.substr(0, slash);
        if (dir.empty() || m_fs->isDirectory(dir)) {
            e.advice = treeCopyAdvice(path.substr(slash + 1));
            return e;
        }
    }
    const auto status = lastCmdStatus();
    if (!status.empty() && status != "ok") {
        e.message += "; kernel says: " + status;
        if (e.code == EINVAL) e.advice = "the kernel rejected '" + std::string(trim(data)) + "': " + status;
    } else if (e.code == EINVAL) {
        e.advice = "the kernel gave no reason (info/last_cmd_status is '" + status
            + "'): usually an unknown domain id or a malformed line";
    }
    return e;
}

Status ResctrlBackend::beginChange()
{
    m_mutex.lock(); // held until endChange(): the sampler thread waits for the whole transaction
    if (m_changeDepth == 0) {
        if (auto l = m_fs->lock(true); !l) {
            m_mutex.unlock();
            return l;
        }
    }
    ++m_changeDepth;
    return {};
}

void ResctrlBackend::endChange()
{
    if (--m_changeDepth == 0) m_fs->unlock();
    m_mutex.unlock();
}

Result<std::vector<GroupInfo>> ResctrlBackend::listGroups()
{
    std::lock_guard lock(m_mutex);
    std::vector<GroupInfo> out;
    auto addMonGroups = [&](const std::string& parent) {
        auto l = m_fs->list(join(parent, "mon_groups"));
        if (!l) return;
        for (const auto& n : *l) {
            const auto p = join(parent, "mon_groups/" + n);
            if (!m_fs->isDirectory(p)) continue;
            GroupInfo g;
            g.path = p;
            g.name = n;
            g.isControl = false;
            g.parent = parent;
            out.push_back(std::move(g));
        }
    };
    // A mode file that exists but cannot be read is "?" (not "shareable"): the overlap rules then refuse to guess.
    auto modeOf = [&](const std::string& file) {
        auto m = m_fs->read(file);
        return m ? std::string(trim(*m)) : m.error().code == ENOENT ? std::string {} : std::string("?");
    };
    GroupInfo root;
    root.mode = modeOf("mode");
    root.closid = 0;
    out.push_back(root);
    addMonGroups("");
    auto entries = m_fs->list("");
    if (!entries) return entries.error();
    for (const auto& n : *entries) {
        if (n == "info" || n == "mon_groups" || n == "mon_data" || !m_fs->isDirectory(n)) continue;
        GroupInfo g;
        g.path = n;
        g.name = n;
        g.mode = modeOf(n + "/mode");
        out.push_back(std::move(g));
        addMonGroups(n);
    }
    return out;
}

Status ResctrlBackend::createControlGroup(const std::string& name)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupName(name); !valid) return valid;
    RootLock rl(*m_fs, true, m_changeDepth);
    if (!rl.status()) return rl.status();
    auto r = m_fs->mkdir(name);
    if (!r) {
        Error e = r.error();
        e.advice = mkdirAdvice(e.code, e.advice);
        if (const auto s = lastCmdStatus(); !s.empty() && s != "ok") e.message += "; kernel says: " + s;
        return e;
    }
    forgetCountersOnMkdirRmdir();
    return {};
}

Status ResctrlBackend::createMonitorGroup(const std::string& parent, const std::string& name)
{
    std::lock_guard lock(m_mutex);
    if (auto valid = checkGroupName(name); !valid) return valid;
    if (auto c = requireGroup(parent, true); !c) return c;
    RootLock rl(*m_fs, true, m_changeDepth);
    if (!rl.status()) return rl.status();
    auto r = m_fs->mkdir(join(parent, "mon_groups/" + name));
    if (!r) {
        Error e = r.error();
        e.advice = mkdirAdvice(e.code, e.advice);
        if (const auto s = lastCmdStatus(); !s.empty() && s != "ok") e.message += "; kernel says: " + s;
        return e;
    }
    forgetCountersOnMkdirRmdir();
    return {};
}

Status ResctrlBackend::removeGroup(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (path.empty())
        return errnoError(EPERM, "the default group cannot be removed", "remove the groups you created instead");
    if (auto c = requireGroup(path, false); !c) return c;
    RootLock rl(*m_fs, true, m_changeDepth);
    if (!rl.status()) return rl.status();
    for (auto it = m_counterFds.begin(); it != m_counterFds.end();) {
        if (it->first == path || it->first.rfind(path + "/", 0) == 0) {
            m_keptFds -= it->second.size();
            it = m_counterFds.erase(it);
        } else {
            ++it;
        }
    }
    auto r = m_fs->rmdir(path);
    if (r) forgetCountersOnMkdirRmdir();
    return r;
}

void ResctrlBackend::forgetCountersOnMkdirRmdir()
{
    // In mbm_event mode the kernel assigns counters on mkdir (mbm_assign_on_mkdir) and frees them on rmdir, so
    // available_mbm_cntrs changed: the capabilities are read again.
    if (m_caps && !m_caps->monitoring.availableMbmCounters.empty()) m_caps.reset();
}

Status ResctrlBackend::assignTasks(const std::string& path, const std::vector<unsigned>& pids)
{
    std::lock_guard lock(m_mutex);
    if (auto c = requireGroup(path, false); !c) return c;
    // Every PID that does not exist, by number, before anything moves.
    std::vector<unsigned> missing;
    for (auto pid : pids)
        if (pid == 0 || !m_fs->taskExists(pid)) missing.push_back(pid);
    std::sort(missing.begin(), missing.end());
    if (!missing.empty())
        return errnoError(ESRCH,
            std::string(missing.size() == 1 ? "no process with PID " : "no processes with PIDs ") + idExamples(missing),
            "check the PIDs with ps; nothing was moved");
    RootLock rl(*m_fs, true, m_changeDepth);
    if (!rl.status()) return rl.status();
    const auto file = join(path, "tasks");
    // One PID per write: older kernels accept only one, and the first failure then names its PID.
    for (auto pid : pids) {
        if (auto w = writeCommand(file, std::to_string(pid)); !w) return w;
        auto back = m_fs->read(file);
        if (!back) return back.error();
        auto listed = parseTaskList(*back, kernelPidBound());
        if (!listed || !std::binary_search(listed->begin(), listed->end(), pid))
            return errnoError(EIO, "task " + std::to_string(pid) + " is not listed in " + file + " after the write",
                "the task may have exited; check it with ps");
    }
    return {};
}

Status ResctrlBackend::assignCpus(const std::string& path, const std::vector<unsigned>& cpuList)
{
    std::lock_guard lock(m_mutex);
    if (auto c = requireGroup(path, false); !c) return c;
    RootLock rl(*m_fs, true, m_changeDepth);
    if (!rl.status()) return rl.status();
    const auto file = join(path, "cpus_list");
    // Undo log: every group's cpus_list before the write. A CPU moved into this group leaves another one (KDOC
    // "cpus": a CPU belongs to exactly one control group), so undoing means restoring every group that changed.
    // No undo log, no write: a group whose cpus_list cannot be read stops the change before anything moves.
    std::vector<std::pair<std::string, std::string>> before;
    auto groups = listGroups();
    if (!groups) return groups.error();
    std::string current;
    for (const auto& g : *groups) {
        auto cur = m_fs->read(join(g.path, "cpus_list"));
        if (!cur && cur.error().code == ENOENT && g.path != path) continue; // a tree copy without the file
        if (!cur) {
            Error e = cur.error();
            e.advice = e.code == ENOENT ? treeCopyAdvice("cpus_list")
                                        : "nothing was changed: the CPUs of every group are read before a CPU moves";
            return e;
        }
        before.emplace_back(g.path, std::string(trim(*cur)));
        if (g.path == path) current = before.back().second;
    }
    auto undo = [&](Error e) {
        // Non-default control groups first (CPUs they drop fall back to the default group, CPUs they list are
        // taken back), then monitor groups; the default group is what is left over.
        std::string restored;
        for (int pass = 0; pass < 2; ++pass)
            for (const auto& [g, list] : before) {
                if (g.empty() || (pass == 0) == (g.find("mon_groups/") != std::string::npos)) continue;
                auto now = m_fs->read(join(g, "cpus_list"));
                if (now && trim(*now) == list) continue;
                if (auto w = writeCommand(join(g, "cpus_list"), list); w)
                    restored += (restored.empty() ? "" : ", ") + (g + "=" + (list.empty() ? "(none)" : list));
                else
                    e.advice += "; WARNING: could not restore " + g + "/cpus_list=" + list + ": " + w.error().message;
            }
        e.message += restored.empty() ? "; nothing to restore" : "; restored " + restored;
        return e;
    };
    // Writing cpus_list replaces the group's set; "assign" adds, so merge with what the group has.
    std::vector<unsigned> merged = cpuList;
    auto had = parseIdList(current, kernelCpuBound());
    if (!had) return had.error();
    merged.insert(merged.end(), had->begin(), had->end());
    if (auto w = writeCommand(file, formatIdList(merged)); !w) return undo(w.error());
    auto back = m_fs->read(file);
    if (!back) return undo(back.error());
    auto ids = parseIdList(*back, kernelCpuBound());
    if (!ids) return undo(ids.error());
    std::vector<unsigned> wanted = cpuList;
    std::sort(wanted.begin(), wanted.end());
    // Sorted on both sides: one linear pass, whatever the list sizes.
    if (const auto absent = missingIds(wanted, *ids); !absent.empty())
        return undo(errnoError(EIO,
            std::string(absent.size() == 1 ? "CPU " : "CPUs ") + idExamples(absent) + " not in " + file
                + " after the write",
            "is the CPU online? (Can only assign online CPUs)"));
    return {};
}

Result<std::vector<unsigned>> ResctrlBackend::tasks(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (auto c = requireGroup(path, false); !c) return c.error();
    auto r = m_fs->read(join(path, "tasks"));
    if (!r) return r.error();
    return parseTaskList(*r, kernelPidBound());
}

Result<std::vector<unsigned>> ResctrlBackend::cpus(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (auto c = requireGroup(path, false); !c) return c.error();
    if (auto r = m_fs->read(join(path, "cpus_list"))) return parseIdList(*r, kernelCpuBound());
    auto r = m_fs->read(join(path, "cpus"));
    if (!r) return r.error();
    return parseCpuMask(*r, kernelCpuBound());
}

Result<Schemata> ResctrlBackend::readSchemata(const std::string& path)
{
    std::lock_guard lock(m_mutex);
    if (auto c = requireGroup(path, true); !c) return c.error();
    auto r = m_fs->read(join(path, "schemata"));
    if (!r) return r.error();
    return Schemata::parse(*r);
}

Status ResctrlBackend::applySchemata(const std::string& path, const Schemata& change)
{
    std::lock_guard lock(m_mutex);
    if (auto c = requireGroup(path, true); !c) return c;
    RootLock rl(*m_fs, true, m_changeDepth);
    if (!rl.status()) return rl.status();
    const auto file = join(path, "schemata");
    // The whole schemata, merged with the change, goes in one newline-terminated multi-line write: the kernel
    // accepts that form (KDOC `echo -e "L3:0=f8000;1=fffff\nMB:0=20;1=100" > p0/schemata`), unchanged values
    // are rewritten as they were, and a plain file (a copied fixture tree) keeps its other lines.
    auto before = m_fs->read(file);
    if (!before) return before.error();
    auto current = Schemata::parse(*before);
    if (!current) return current.error();
    Schemata merged = *current;
    for (const auto& line : change.lines())
        for (const auto& [d, v] : line.values)
            merged.set(line.resource, d, v);
    if (auto w = writeCommand(file, merged.format()); !w) return w;
    auto back = m_fs->read(file);
    if (!back) return back.error();
    auto readBack = Schemata::parse(*back);
    if (!readBack) return readBack.error();
    for (const auto& line : change.lines()) {
        for (const auto& [d, v] : line.values) {
            const auto got = readBack->value(line.resource, d);
            if (!got || normaliseValue(line.resource, *got) != normaliseValue(line.resource, v)) {
                return errnoError(EIO,
                    "wrote " + line.resource + ":" + std::to_string(d) + "=" + v + " to " + file + " but read back "
                        + (got ? *got : std::string("nothing")),
                    "the kernel adjusted or ignored the value; last_cmd_status: " + lastCmdStatus());
            }
        }
    }
    return {};
}

std::vector<std::string> ResctrlBackend::warnings()
{
    std::lock_guard lock(m_mutex);
    auto out = m_capWarnings;
    for (auto& w : detectOtherRdtUsers(*m_fs))
        out.push_back(std::move(w));
    return out;
}

} // namespace rdt

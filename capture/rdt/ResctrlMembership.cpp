// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlMembership.h"

#include "GroupNames.h"
#include "RootLock.h"
#include "core/IdList.h"
#include "core/Text.h"

#include <algorithm>
#include <cerrno>

namespace rdt {

ResctrlMembership::ResctrlMembership(ResctrlTree& tree, ResctrlGroups& groups)
    : m_tree(tree)
    , m_groups(groups)
{ }

Status ResctrlMembership::assignTasks(const std::string& path, const std::vector<unsigned>& pids)
{
    Fs& fs = m_tree.fs();
    if (auto c = m_tree.requireGroup(path, false); !c) return c;
    // Every PID that does not exist, by number, before anything moves.
    std::vector<unsigned> missing;
    for (auto pid : pids)
        if (pid == 0 || !fs.taskExists(pid)) missing.push_back(pid);
    std::sort(missing.begin(), missing.end());
    if (!missing.empty())
        return errnoError(ESRCH,
            std::string(missing.size() == 1 ? "no process with PID " : "no processes with PIDs ") + idExamples(missing),
            "check the PIDs with ps; nothing was moved");
    RootLock rl(fs, true, m_tree.changeDepth());
    if (!rl.status()) return rl.status();
    const auto file = m_tree.join(path, "tasks");
    // One PID per write: older kernels accept only one, and the first failure then names its PID.
    for (auto pid : pids) {
        if (auto w = m_tree.writeCommand(file, std::to_string(pid)); !w) return w;
        auto back = fs.read(file);
        if (!back) return back.error();
        auto listed = parseTaskList(*back, kernelPidBound());
        if (!listed || !std::binary_search(listed->begin(), listed->end(), pid))
            return errnoError(EIO, "task " + std::to_string(pid) + " is not listed in " + file + " after the write",
                "the task may have exited; check it with ps");
    }
    return {};
}

Status ResctrlMembership::assignCpus(const std::string& path, const std::vector<unsigned>& cpuList)
{
    Fs& fs = m_tree.fs();
    if (auto c = m_tree.requireGroup(path, false); !c) return c;
    RootLock rl(fs, true, m_tree.changeDepth());
    if (!rl.status()) return rl.status();
    const auto file = m_tree.join(path, "cpus_list");
    // Undo log: every group's cpus_list before the write. A CPU moved into this group leaves another one (KDOC
    // "cpus": a CPU belongs to exactly one control group), so undoing means restoring every group that changed.
    // No undo log, no write: a group whose cpus_list cannot be read stops the change before anything moves.
    std::vector<std::pair<std::string, std::string>> before;
    auto groups = m_groups.list();
    if (!groups) return groups.error();
    std::string current;
    for (const auto& g : *groups) {
        auto cur = fs.read(m_tree.join(g.path, "cpus_list"));
        if (!cur && cur.error().code == ENOENT && g.path != path) continue; // a tree copy without the file
        if (!cur) {
            Error e = cur.error();
            e.advice = e.code == ENOENT ? m_tree.treeCopyAdvice("cpus_list")
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
                auto now = fs.read(m_tree.join(g, "cpus_list"));
                if (now && trim(*now) == list) continue;
                if (auto w = m_tree.writeCommand(m_tree.join(g, "cpus_list"), list); w)
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
    if (auto w = m_tree.writeCommand(file, formatIdList(merged)); !w) return undo(w.error());
    auto back = fs.read(file);
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

Result<std::vector<unsigned>> ResctrlMembership::tasks(const std::string& path)
{
    if (auto c = m_tree.requireGroup(path, false); !c) return c.error();
    auto r = m_tree.fs().read(m_tree.join(path, "tasks"));
    if (!r) return r.error();
    return parseTaskList(*r, kernelPidBound());
}

Result<std::vector<unsigned>> ResctrlMembership::cpus(const std::string& path)
{
    if (auto c = m_tree.requireGroup(path, false); !c) return c.error();
    if (auto r = m_tree.fs().read(m_tree.join(path, "cpus_list"))) return parseIdList(*r, kernelCpuBound());
    auto r = m_tree.fs().read(m_tree.join(path, "cpus"));
    if (!r) return r.error();
    return parseCpuMask(*r, kernelCpuBound());
}

} // namespace rdt

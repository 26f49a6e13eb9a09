// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlGroups.h"

#include "GroupNames.h"
#include "LimboTrace.h"
#include "RootLock.h"
#include "core/PosixFs.h"
#include "core/Text.h"

#include <cerrno>

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

/// A hardware id from a debug file (`ctrl_hw_id`, `mon_hw_id`: present only when resctrl is mounted with
/// `-o debug`, Documentation/filesystems/resctrl.rst), or -1 when the file is absent or does not hold a small number.
int hardwareId(Fs& fs, const std::string& file)
{
    auto text = fs.read(file);
    if (!text) return -1;
    const auto digits = trim(*text);
    if (digits.empty() || digits.size() > 6) return -1;
    int value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return -1;
        value = value * 10 + (c - '0');
    }
    return value;
}

}

ResctrlGroups::ResctrlGroups(ResctrlTree& tree)
    : m_tree(tree)
{ }

Result<std::vector<GroupInfo>> ResctrlGroups::list()
{
    Fs& fs = m_tree.fs();
    std::vector<GroupInfo> out;
    auto addMonGroups = [&](const std::string& parent) {
        auto l = fs.list(m_tree.join(parent, "mon_groups"));
        if (!l) return;
        for (const auto& n : *l) {
            const auto p = m_tree.join(parent, "mon_groups/" + n);
            if (!fs.isDirectory(p)) continue;
            GroupInfo g;
            g.path = p;
            g.name = n;
            g.isControl = false;
            g.parent = parent;
            g.rmid = hardwareId(fs, m_tree.join(p, "mon_hw_id"));
            out.push_back(std::move(g));
        }
    };
    // A mode file that exists but cannot be read is "?" (not "shareable"): the overlap rules then refuse to guess.
    auto modeOf = [&](const std::string& file) {
        auto m = fs.read(file);
        return m ? std::string(trim(*m)) : m.error().code == ENOENT ? std::string {} : std::string("?");
    };
    GroupInfo root;
    root.mode = modeOf("mode");
    root.closid = 0; // the default group is CLOSID 0 (resctrl.rst), debug files or not
    root.rmid = hardwareId(fs, "mon_hw_id");
    out.push_back(root);
    addMonGroups("");
    auto entries = fs.list("");
    if (!entries) return entries.error();
    for (const auto& n : *entries) {
        if (n == "info" || n == "mon_groups" || n == "mon_data" || !fs.isDirectory(n)) continue;
        GroupInfo g;
        g.path = n;
        g.name = n;
        g.mode = modeOf(n + "/mode");
        g.closid = hardwareId(fs, n + "/ctrl_hw_id");
        g.rmid = hardwareId(fs, n + "/mon_hw_id");
        out.push_back(std::move(g));
        addMonGroups(n);
    }
    return out;
}

Status ResctrlGroups::mkdirGroup(const std::string& path)
{
    RootLock rl(m_tree.fs(), true, m_tree.changeDepth());
    if (!rl.status()) return rl.status();
    auto r = m_tree.fs().mkdir(path);
    if (!r) {
        Error e = r.error();
        e.advice = mkdirAdvice(e.code, e.advice);
        // On the kernel's own mount, the limbo tracepoint says which RMIDs still hold lines (read only, tracefs).
        if (e.code == EBUSY && m_tree.describe() == "/sys/fs/resctrl") {
            PosixFs tracefs("/sys/kernel/tracing");
            e.advice += "; " + LimboTrace(tracefs).read().advice();
        }
        if (const auto s = m_tree.lastCmdStatus(); !s.empty() && s != "ok") e.message += "; kernel says: " + s;
        return e;
    }
    return {};
}

Status ResctrlGroups::createControl(const std::string& name)
{
    if (auto valid = checkGroupName(name); !valid) return valid;
    return mkdirGroup(name);
}

Status ResctrlGroups::createMonitor(const std::string& parent, const std::string& name)
{
    if (auto valid = checkGroupName(name); !valid) return valid;
    if (auto c = m_tree.requireGroup(parent, true); !c) return c;
    return mkdirGroup(m_tree.join(parent, "mon_groups/" + name));
}

Status ResctrlGroups::remove(const std::string& path, const std::function<void()>& beforeRmdir)
{
    if (path.empty())
        return errnoError(EPERM, "the default group cannot be removed", "remove the groups you created instead");
    if (auto c = m_tree.requireGroup(path, false); !c) return c;
    RootLock rl(m_tree.fs(), true, m_tree.changeDepth());
    if (!rl.status()) return rl.status();
    beforeRmdir();
    return m_tree.fs().rmdir(path);
}

} // namespace rdt

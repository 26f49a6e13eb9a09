// SPDX-License-Identifier: GPL-3.0-or-later
// Simulation::remountResctrl: enabling or disabling CDP, which the kernel does only at mount time.
#include "Simulation.h"

#include <cerrno>
#include <sstream>

namespace rdt::sim {
namespace {

/// A group as the remount finds it, through the resctrl files (what a provisioning script would save).
struct SavedGroup {
    std::string path; ///< "web" or "web/mon_groups/m1"
    std::vector<std::string> tasks;
    std::string cpusList;
};

std::vector<std::string> words(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

void save(Fs& fs, const std::string& path, std::vector<SavedGroup>& out)
{
    SavedGroup g { path, {}, {} };
    if (auto t = fs.read(path + "/tasks")) g.tasks = words(*t);
    if (auto c = fs.read(path + "/cpus_list")) g.cpusList = words(*c).empty() ? std::string() : words(*c).front();
    out.push_back(std::move(g));
}

/// Every group below the root, control groups before their monitor groups (the order mkdir needs).
std::vector<SavedGroup> saveGroups(Fs& fs)
{
    std::vector<SavedGroup> out;
    auto collectMon = [&](const std::string& parent) {
        const std::string dir = parent.empty() ? "mon_groups" : parent + "/mon_groups";
        if (auto mons = fs.list(dir))
            for (const auto& m : *mons)
                if (fs.isDirectory(dir + "/" + m)) save(fs, dir + "/" + m, out);
    };
    auto entries = fs.list("");
    if (entries)
        for (const auto& e : *entries) {
            if (e == "info" || e == "mon_groups" || e == "mon_data" || !fs.isDirectory(e)) continue;
            save(fs, e, out);
            collectMon(e);
        }
    collectMon("");
    return out;
}

} // namespace

Status Simulation::remountResctrl(bool cdp)
{
    std::lock_guard lock(m_machine->mutex());
    if (cdp && !m_machine->features().l3Cat.cdp)
        return errnoError(EINVAL, "mount -o cdp: the simulated processor has no L3 CDP (CPUID.10H.1:ECX[2]=0)",
            "pick a preset with CDP (bdw-6850k)");
    const std::vector<SavedGroup> groups = saveGroups(*m_fs);
    ResctrlMountOptions options = m_fs->options();
    options.cdp = cdp;
    m_fs.reset(); // rdt_kill_sb: every group removed, every control and CDP back to the defaults
    auto mounted = SimResctrlFs::mount(*m_machine, options);
    if (!mounted) { // cannot happen after the check above; mount without CDP rather than leave nothing mounted
        options.cdp = false;
        mounted = SimResctrlFs::mount(*m_machine, options);
        if (!mounted) return mounted.error();
    }
    m_fs = std::move(*mounted);
    const std::uint64_t now = m_machine->nowNs();
    m_events.push_back({ now,
        std::string("umount /sys/fs/resctrl; mount -t resctrl resctrl ") + (cdp ? "-o cdp " : "")
            + "/sys/fs/resctrl (L3 CDP " + (cdp ? "on" : "off") + ")",
        true, false });
    // Re-provision: the groups with their tasks and CPUs; a failure (fewer CLOSIDs with CDP) is reported, not fatal.
    for (const auto& g : groups) {
        Status s = m_fs->mkdir(g.path);
        for (std::size_t i = 0; s && i < g.tasks.size(); ++i)
            s = m_fs->write(g.path + "/tasks", g.tasks[i] + "\n");
        if (s && !g.cpusList.empty()) s = m_fs->write(g.path + "/cpus_list", g.cpusList + "\n");
        if (!s) m_events.push_back({ now, "re-creating " + g.path + " failed: " + s.error().message, false, false });
    }
    return {};
}

} // namespace rdt::sim

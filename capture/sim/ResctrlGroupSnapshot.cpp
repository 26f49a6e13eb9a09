// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResctrlGroupSnapshot.h"

#include <sstream>

namespace rdt::sim {
namespace {

std::vector<std::string> words(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

} // namespace

void ResctrlGroupSnapshot::save(Fs& fs, const std::string& path)
{
    SavedGroup g { path, {}, {} };
    if (auto t = fs.read(path + "/tasks")) g.tasks = words(*t);
    if (auto c = fs.read(path + "/cpus_list")) g.cpusList = words(*c).empty() ? std::string() : words(*c).front();
    m_groups.push_back(std::move(g));
}

ResctrlGroupSnapshot ResctrlGroupSnapshot::take(Fs& fs)
{
    ResctrlGroupSnapshot out;
    auto collectMon = [&](const std::string& parent) {
        const std::string dir = parent.empty() ? "mon_groups" : parent + "/mon_groups";
        if (auto mons = fs.list(dir))
            for (const auto& m : *mons)
                if (fs.isDirectory(dir + "/" + m)) out.save(fs, dir + "/" + m);
    };
    auto entries = fs.list("");
    if (entries)
        for (const auto& e : *entries) {
            if (e == "info" || e == "mon_groups" || e == "mon_data" || !fs.isDirectory(e)) continue;
            out.save(fs, e);
            collectMon(e);
        }
    collectMon("");
    return out;
}

std::vector<std::string> ResctrlGroupSnapshot::restore(Fs& fs) const
{
    std::vector<std::string> failures;
    for (const auto& g : m_groups) {
        Status s = fs.mkdir(g.path);
        for (std::size_t i = 0; s && i < g.tasks.size(); ++i)
            s = fs.write(g.path + "/tasks", g.tasks[i] + "\n");
        if (s && !g.cpusList.empty()) s = fs.write(g.path + "/cpus_list", g.cpusList + "\n");
        if (!s) failures.push_back("re-creating " + g.path + " failed: " + s.error().message);
    }
    return failures;
}

} // namespace rdt::sim

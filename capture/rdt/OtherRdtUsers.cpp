// SPDX-License-Identifier: GPL-3.0-or-later
// Who else uses RDT on this machine, by the groups their tools leave in a resctrl tree (docs/RESCTRL.md).
#include "ResctrlBackend.h"

#include <algorithm>

namespace rdt {

std::vector<std::string> detectOtherRdtUsers(Fs& fs)
{
    std::vector<std::string> out;
    auto entries = fs.list("");
    if (!entries) return out;
    std::vector<std::string> pqos, pcm, cadvisor;
    auto scanMon = [&](const std::string& parent) {
        auto l = fs.list(parent.empty() ? "mon_groups" : parent + "/mon_groups");
        if (!l) return;
        for (const auto& n : *l) {
            const auto p = parent.empty() ? "mon_groups/" + n : parent + "/mon_groups/" + n;
            if (n.rfind("pcm", 0) == 0)
                pcm.push_back(p);
            else if (n.rfind("cadvisor", 0) == 0)
                cadvisor.push_back(p);
        }
    };
    scanMon("");
    for (const auto& n : *entries) {
        if (n == "info" || n == "mon_groups" || n == "mon_data" || !fs.isDirectory(n)) continue;
        if (n.size() > 3 && n.rfind("COS", 0) == 0
            && std::all_of(n.begin() + 3, n.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            pqos.push_back(n);
        else if (n.rfind("cadvisor", 0) == 0)
            cadvisor.push_back(n);
        scanMon(n);
    }
    auto joinList = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v)
            s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    if (!pqos.empty())
        out.push_back("pqos/intel-cmt-cat groups present (" + joinList(pqos)
            + "): pqos may rewrite these CLOS; coordinate or run `pqos -R` when done");
    if (!pcm.empty())
        out.push_back("Intel PCM monitor groups present (" + joinList(pcm) + "): PCM is using RMIDs here");
    if (!cadvisor.empty())
        out.push_back("cAdvisor groups present (" + joinList(cadvisor) + "): a container runtime manages these");
    return out;
}

} // namespace rdt

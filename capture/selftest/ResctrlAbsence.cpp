// SPDX-License-Identifier: GPL-3.0-or-later
// The facts behind "no resctrl": a resctrl mounted elsewhere (/proc/mounts), the file system type in /proc/filesystems
// (Documentation/filesystems/resctrl.rst "Usage": mount -t resctrl), the mount in /proc/mounts, and the CPU flags Linux
// shows for RDT in /proc/cpuinfo (arch/x86/include/asm/cpufeatures.h: rdt_a allocation, cqm monitoring, hypervisor when
// running in a VM).
#include "ResctrlAbsence.h"

#include <fstream>
#include <sstream>

namespace rdt::selftest {

namespace {

std::string fileText(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool hasWord(const std::string& text, const std::string& word)
{
    std::istringstream in(text);
    std::string w;
    while (in >> w)
        if (w == word) return true;
    return false;
}

} // namespace

ResctrlAbsence ResctrlAbsence::diagnose(const std::string& mountpoint, const std::string& procRoot)
{
    ResctrlAbsence a;
    const bool inKernel = hasWord(fileText(procRoot + "/filesystems"), "resctrl");
    std::string flags;
    {
        std::istringstream cpuinfo(fileText(procRoot + "/cpuinfo"));
        std::string line;
        while (std::getline(cpuinfo, line))
            if (line.rfind("flags", 0) == 0) {
                flags = line;
                break;
            }
    }
    const bool rdtA = hasWord(flags, "rdt_a"), cqm = hasWord(flags, "cqm") || hasWord(flags, "cqm_llc");
    const bool vm = hasWord(flags, "hypervisor");
    // Mounted, but elsewhere: the answer is a path, not a kernel.
    {
        std::istringstream mounts(fileText(procRoot + "/mounts"));
        std::string line;
        while (std::getline(mounts, line)) {
            std::istringstream words(line);
            std::string device, point, type;
            words >> device >> point >> type;
            if (type == "resctrl" && point != mountpoint) {
                a.why = "no resctrl mounted at " + mountpoint + "; resctrl is mounted at " + point;
                a.fix = "test that one: rdtscope-cli selftest --source resctrl:" + point;
                return a;
            }
        }
    }
    a.why = "no resctrl mounted at " + mountpoint + "; ";
    a.why += inKernel ? "the kernel has resctrl (/proc/filesystems lists it)"
                      : "the kernel does not list resctrl in /proc/filesystems (CONFIG_X86_CPU_RESCTRL off, or no RDT "
                        "CPU found at boot)";
    a.why += flags.empty() ? "; /proc/cpuinfo has no flags line"
                           : std::string("; the CPU flags have ") + (rdtA ? "rdt_a" : "no rdt_a (allocation)") + " and "
            + (cqm ? "cqm" : "no cqm (monitoring)");
    if (vm && !rdtA && !cqm) a.why += "; this is a virtual machine (flag hypervisor), and its hypervisor hides RDT";
    if (inKernel)
        a.fix = "mount it: mount -t resctrl resctrl " + mountpoint;
    else if (vm && !rdtA && !cqm)
        a.fix = "run on bare metal, or on a hypervisor that passes RDT through to guests";
    else if (!rdtA && !cqm)
        a.fix = "this processor enumerates no RDT: test on a Xeon or EPYC that has it";
    else
        a.fix = "boot a kernel built with CONFIG_X86_CPU_RESCTRL=y (and without rdt=off)";
    return a;
}

} // namespace rdt::selftest

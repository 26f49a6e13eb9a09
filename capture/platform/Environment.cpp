// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/Environment.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace rdt {

namespace {

std::string join(const std::string& root, const std::string& path)
{
    if (root.empty() || root == "/") return path;
    return (root.back() == '/' ? root.substr(0, root.size() - 1) : root) + path;
}

std::optional<std::string> readText(const std::string& path)
{
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool exists(const std::string& path)
{
    std::error_code ec;
    return std::filesystem::exists(path, ec);
}

std::string firstLine(const std::string& s)
{
    const auto nl = s.find('\n');
    return nl == std::string::npos ? s : s.substr(0, nl);
}

} // namespace

EnvironmentProbe probeEnvironment(const std::string& root, bool hypervisorBit)
{
    EnvironmentProbe e;
    e.root = root;
    e.isRoot = (root.empty() || root == "/") && ::geteuid() == 0;

    if (auto type = readText(join(root, "/sys/hypervisor/type"))) e.hypervisorType = firstLine(*type);

    // resctrl (Documentation/filesystems/resctrl.rst): the kernel lists it in /proc/filesystems when built with
    // CONFIG_X86_CPU_RESCTRL and the CPU enumerates RDT; info/ exists once it is mounted.
    if (auto fs = readText(join(root, "/proc/filesystems")))
        e.resctrlInKernel = fs->find("resctrl") != std::string::npos;
    e.resctrlMounted = exists(join(root, "/sys/fs/resctrl/info"));
    if (!e.resctrlMounted) {
        if (e.resctrlInKernel)
            e.resctrlWhyNot = "resctrl not mounted: mount -t resctrl resctrl /sys/fs/resctrl";
        else
            e.resctrlWhyNot = "resctrl not available: the kernel does not list it in /proc/filesystems (needs "
                              "CONFIG_X86_CPU_RESCTRL and a CPU that enumerates RDT"
                + std::string(hypervisorBit ? "; hypervisors rarely pass RDT through" : "") + ")";
    }

    // The core PMU: 'cpu' on most Intel parts, 'cpu_core'/'cpu_atom' on hybrid ones.
    for (const char* name : { "cpu", "cpu_core" }) {
        if (exists(join(root, std::string("/sys/bus/event_source/devices/") + name))) {
            e.cpuPmu = true;
            e.cpuPmuName = name;
            break;
        }
    }
    if (!e.cpuPmu)
        e.cpuPmuWhyNot = hypervisorBit
            ? "no 'cpu' PMU: running in a VM without a virtual PMU (enable vPMU in the hypervisor, e.g. "
              "`-cpu host,pmu=on` for QEMU/KVM)"
            : "no 'cpu' PMU under /sys/bus/event_source/devices: the kernel has no hardware PMU driver for this CPU";

    if (auto p = readText(join(root, "/proc/sys/kernel/perf_event_paranoid"))) {
        char* end = nullptr;
        const long v = std::strtol(p->c_str(), &end, 10);
        if (end != p->c_str()) e.perfEventParanoid = static_cast<int>(v);
    }
    if (!e.perfEventParanoid)
        e.perfWhyNot = "perf_event_open not available: /proc/sys/kernel/perf_event_paranoid is missing "
                       "(kernel without CONFIG_PERF_EVENTS)";
    else if (*e.perfEventParanoid > 1 && !e.isRoot)
        e.perfWhyNot = "perf_event_paranoid=" + std::to_string(*e.perfEventParanoid)
            + " and no CAP_PERFMON: only user-space counting of own processes; run "
              "`sudo sysctl kernel.perf_event_paranoid=1` or grant CAP_PERFMON";

    e.msrDevice = exists(join(root, "/dev/cpu/0/msr"));
    if (!e.msrDevice)
        e.msrWhyNot = "no /dev/cpu/0/msr: load the msr driver with `sudo modprobe msr`"
            + std::string(hypervisorBit ? " (a VM usually traps RDT MSRs even then)" : "");
    return e;
}

} // namespace rdt

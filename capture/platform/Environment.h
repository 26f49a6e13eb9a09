// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>

namespace rdt {

/// What the running system offers beyond CPUID: kernel interfaces and permissions. Every path is read below
/// a configurable root ("/" normally, a temp dir in tests). Each absent thing carries a "why not + what would
/// fix it" text, which `rdtscope-cli info`, the status bar and the Machine panel show as they are.
struct EnvironmentProbe {
    std::string root = "/";

    bool resctrlInKernel = false; ///< "resctrl" listed in /proc/filesystems
    bool resctrlMounted = false; ///< /sys/fs/resctrl/info exists
    std::string resctrlWhyNot; ///< empty when mounted

    bool cpuPmu = false; ///< /sys/bus/event_source/devices/cpu (or cpu_core on hybrid parts)
    std::string cpuPmuName; ///< "cpu" or "cpu_core"
    std::string cpuPmuWhyNot;

    std::optional<int> perfEventParanoid; ///< /proc/sys/kernel/perf_event_paranoid
    std::string perfWhyNot; ///< empty when paranoid <= 1 or running as root

    bool msrDevice = false; ///< /dev/cpu/0/msr exists
    std::string msrWhyNot;

    std::string hypervisorType; ///< /sys/hypervisor/type, or "" when absent
    bool isRoot = false; ///< effective uid 0 (only meaningful when root == "/")
};

/// Probes everything under `root`. `hypervisorBit` is CPUID.01H:ECX[31] from the decoded features, so the
/// PMU why-not text can say "running in a VM without a virtual PMU" when that is the likely reason.
EnvironmentProbe probeEnvironment(const std::string& root = "/", bool hypervisorBit = false);

} // namespace rdt

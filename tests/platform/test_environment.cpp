// SPDX-License-Identifier: GPL-3.0-or-later
// Environment probes under a temp root: everything present, and nothing present with the why-not texts.
#include "TempDir.h"

#include "platform/Environment.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::test;

TEST(Environment, EverythingPresent)
{
    TempDir d;
    d.write("proc/filesystems", "nodev\tsysfs\nnodev\tresctrl\n");
    d.mkdir("sys/fs/resctrl/info/L3");
    d.mkdir("sys/bus/event_source/devices/cpu");
    d.write("proc/sys/kernel/perf_event_paranoid", "1\n");
    d.write("dev/cpu/0/msr", "");
    d.write("sys/hypervisor/type", "xen\n");
    const EnvironmentProbe e = probeEnvironment(d.path(), true);
    EXPECT_TRUE(e.resctrlInKernel);
    EXPECT_TRUE(e.resctrlMounted);
    EXPECT_TRUE(e.resctrlWhyNot.empty());
    EXPECT_TRUE(e.cpuPmu);
    EXPECT_EQ(e.cpuPmuName, "cpu");
    ASSERT_TRUE(e.perfEventParanoid.has_value());
    EXPECT_EQ(*e.perfEventParanoid, 1);
    EXPECT_TRUE(e.perfWhyNot.empty());
    EXPECT_TRUE(e.msrDevice);
    EXPECT_EQ(e.hypervisorType, "xen");
    EXPECT_FALSE(e.isRoot); // only meaningful for "/"
}

TEST(Environment, HybridPmuIsCpuCore)
{
    TempDir d;
    d.mkdir("sys/bus/event_source/devices/cpu_core");
    const EnvironmentProbe e = probeEnvironment(d.path());
    EXPECT_TRUE(e.cpuPmu);
    EXPECT_EQ(e.cpuPmuName, "cpu_core");
}

TEST(Environment, NothingPresentExplainsWhyAndTheFix)
{
    TempDir d;
    d.write("proc/filesystems", "nodev\tsysfs\nnodev\tresctrl\n");
    d.write("proc/sys/kernel/perf_event_paranoid", "2\n");
    const EnvironmentProbe e = probeEnvironment(d.path(), true);
    EXPECT_FALSE(e.resctrlMounted);
    EXPECT_EQ(e.resctrlWhyNot, "resctrl not mounted: mount -t resctrl resctrl /sys/fs/resctrl");
    EXPECT_FALSE(e.cpuPmu);
    EXPECT_NE(e.cpuPmuWhyNot.find("no 'cpu' PMU: running in a VM without a virtual PMU"), std::string::npos);
    EXPECT_NE(e.perfWhyNot.find("perf_event_paranoid=2"), std::string::npos);
    EXPECT_NE(e.perfWhyNot.find("CAP_PERFMON"), std::string::npos);
    EXPECT_FALSE(e.msrDevice);
    EXPECT_NE(e.msrWhyNot.find("modprobe msr"), std::string::npos);
}

TEST(Environment, KernelWithoutResctrl)
{
    TempDir d;
    d.write("proc/filesystems", "nodev\tsysfs\n");
    const EnvironmentProbe e = probeEnvironment(d.path(), false);
    EXPECT_FALSE(e.resctrlInKernel);
    EXPECT_NE(e.resctrlWhyNot.find("CONFIG_X86_CPU_RESCTRL"), std::string::npos);
    EXPECT_NE(e.cpuPmuWhyNot.find("no hardware PMU driver"), std::string::npos);
    EXPECT_FALSE(e.perfEventParanoid.has_value());
    EXPECT_NE(e.perfWhyNot.find("CONFIG_PERF_EVENTS"), std::string::npos);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated kernel's dialects beyond x86 (sim/SimConfig.h ResctrlDialect, docs/RESCTRL.md "Dialects"): the
// arm-mpam preset (Documentation/arch/arm64/mpam.rst), riscv-cbqri (the CBQRI branch's resctrl.rst: MB_MIN's budget
// refused with EINVAL, mkdir failing when it is used up) and xeon-mbregion (resource_schemata descriptions).
#include "SimTestUtil.h"

#include "sim/SimResctrlFs.h"

using namespace rdt;
using namespace rdt::sim;
using namespace rdt::sim::test;

namespace {
struct Dialect {
    std::unique_ptr<SimMachine> machine;
    std::unique_ptr<SimResctrlFs> fs;
    explicit Dialect(const std::string& preset, bool cdp = false)
    {
        const PresetInfo* info = presetInfo(preset);
        EXPECT_NE(info, nullptr) << preset;
        auto cpuid = presetCpuid(preset);
        EXPECT_TRUE(cpuid.ok()) << preset;
        SimOptions o;
        o.topology.coresPerSocket = 16;
        o.dialect = static_cast<ResctrlDialect>(info ? info->dialect : 0);
        auto m = SimMachine::create(*cpuid, o);
        EXPECT_TRUE(m.ok());
        machine = std::move(*m);
        ResctrlMountOptions mo;
        mo.cdp = cdp;
        auto f = SimResctrlFs::mount(*machine, mo);
        EXPECT_TRUE(f.ok()) << (f ? "" : f.error().toString());
        fs = std::move(*f);
    }
    std::string read(const std::string& p)
    {
        auto r = fs->read(p);
        EXPECT_TRUE(r.ok()) << p << ": " << (r ? "" : r.error().toString());
        return r ? *r : std::string {};
    }
    std::vector<std::string> list(const std::string& p)
    {
        auto r = fs->list(p);
        return r ? *r : std::vector<std::string> {};
    }
    bool has(const std::vector<std::string>& v, const std::string& x)
    {
        return std::find(v.begin(), v.end(), x) != v.end();
    }
};
} // namespace

TEST(DialectPresets, EachIsLabelledSynthetic)
{
    for (const char* id : { "arm-mpam", "riscv-cbqri", "xeon-mbregion" }) {
        auto cpuid = presetCpuid(id);
        ASSERT_TRUE(cpuid.ok()) << id;
        ASSERT_FALSE(cpuid->notes.empty()) << id;
        EXPECT_NE(cpuid->notes.front().find("synthetic"), std::string::npos) << id;
        EXPECT_NE(presetInfo(id)->name.find("synthetic"), std::string::npos) << id;
    }
}

TEST(DialectPresets, MpamShowsPortionsMbAndNoLocalBandwidth)
{
    Dialect d("arm-mpam");
    const auto info = d.list("info");
    EXPECT_TRUE(d.has(info, "L2") && d.has(info, "L3") && d.has(info, "MB") && d.has(info, "L3_MON"));
    EXPECT_EQ(d.read("info/L3/cbm_mask"), "ffff\n");
    EXPECT_EQ(d.read("info/MB/min_bandwidth"), "2\n");
    EXPECT_FALSE(d.has(d.list("info/MB"), "thread_throttle_mode")); // an Intel file
    EXPECT_EQ(d.read("info/L3_MON/mon_features"), "llc_occupancy\nmbm_total_bytes\n");
    const auto files = d.list("mon_data/mon_L3_00");
    EXPECT_TRUE(d.has(files, "mbm_total_bytes"));
    EXPECT_FALSE(d.has(files, "mbm_local_bytes"));
    EXPECT_NE(d.read("schemata").find("MB:0=100"), std::string::npos);
}

TEST(DialectPresets, MpamHidesMbUnderCdp)
{
    Dialect d("arm-mpam", true);
    const auto info = d.list("info");
    EXPECT_TRUE(d.has(info, "L3CODE") && d.has(info, "L3DATA"));
    EXPECT_FALSE(d.has(info, "MB"));
    EXPECT_EQ(d.read("schemata").find("MB:"), std::string::npos);
    auto w = d.fs->write("schemata", "MB:0=50\n");
    EXPECT_FALSE(w.ok());
    // The x86 presets keep MB under CDP.
    Dialect x86("skx-6154", true);
    EXPECT_TRUE(x86.has(x86.list("info"), "MB"));
}

TEST(DialectPresets, CbqriBudgetRefusedWithEinvalAndMkdirFailsWhenUsedUp)
{
    Dialect d("riscv-cbqri");
    EXPECT_FALSE(d.has(d.list("info"), "MB"));
    EXPECT_EQ(d.read("info/MB_MIN/resource_schemata/MB_MIN/max"), "819\n");
    EXPECT_EQ(d.read("info/MB_WGHT/resource_schemata/MB_WGHT/max"), "255\n");
    EXPECT_EQ(d.read("info/MB_MIN/min_bandwidth"), "1\n");
    const auto root = d.read("schemata");
    EXPECT_NE(root.find("MB_MIN:0=756"), std::string::npos) << root; // 819 - 63 other RCIDs at one block each
    EXPECT_NE(root.find("MB_WGHT:0=255"), std::string::npos) << root;
    ASSERT_TRUE(d.fs->mkdir("g").ok());
    EXPECT_NE(d.read("g/schemata").find("MB_MIN:0=1"), std::string::npos);
    // Over the budget: the default group holds 756, so 64 does not fit and the kernel says EINVAL.
    auto over = d.fs->write("g/schemata", "MB_MIN:0=64\n");
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error().code, EINVAL);
    EXPECT_NE(d.read("info/last_cmd_status").find("exceeds the budget of 819"), std::string::npos);
    EXPECT_NE(d.read("g/schemata").find("MB_MIN:0=1"), std::string::npos); // nothing written
    EXPECT_TRUE(d.fs->write("g/schemata", "MB_MIN:0=63\n").ok());
    EXPECT_FALSE(d.fs->write("g/schemata", "MB_WGHT:0=256\n").ok());
    EXPECT_TRUE(d.fs->write("g/schemata", "MB_WGHT:0=0\n").ok());
    // The budget is now used up (756 + 63): the next mkdir finds no block for its one.
    auto full = d.fs->mkdir("h");
    ASSERT_FALSE(full.ok());
    EXPECT_EQ(full.error().code, ENOSPC);
    EXPECT_NE(d.read("info/last_cmd_status").find("No unreserved bandwidth block left on MB_MIN:0"), std::string::npos);
    EXPECT_FALSE(d.has(d.list(""), "h"));
    // Giving a block back makes room again.
    ASSERT_TRUE(d.fs->write("schemata", "MB_MIN:0=755\n").ok());
    EXPECT_TRUE(d.fs->mkdir("h").ok());
}

TEST(DialectPresets, RegionAwareControlsDescribeThemselves)
{
    Dialect d("xeon-mbregion");
    const auto mb = d.list("info/MB");
    EXPECT_TRUE(d.has(mb, "resource_schemata"));
    const auto controls = d.list("info/MB/resource_schemata");
    EXPECT_TRUE(d.has(controls, "MB") && d.has(controls, "MB_REGION0_MIN") && d.has(controls, "MB_REGION1_MAX"));
    EXPECT_FALSE(d.has(d.list("info"), "MB_REGION0_MIN")); // a control of MB, not a resource of its own
    EXPECT_EQ(d.read("info/MB/resource_schemata/MB/resolution"), "100\n");
    EXPECT_EQ(d.read("info/MB/resource_schemata/MB/unit"), "all\n");
    EXPECT_EQ(d.read("info/MB/resource_schemata/MB_REGION0_OPT/max"), "511\n");
    EXPECT_EQ(d.read("info/MB/resource_schemata/MB_REGION0_OPT/type"), "scalar linear\n");
    EXPECT_NE(d.read("schemata").find("MB_REGION0_MIN:0=1"), std::string::npos);
    EXPECT_TRUE(d.fs->write("schemata", "MB_REGION1_MAX:0=300\n").ok());
    EXPECT_NE(d.read("schemata").find("MB_REGION1_MAX:0=300"), std::string::npos);
    EXPECT_FALSE(d.fs->write("schemata", "MB_REGION1_MAX:0=512\n").ok());
}

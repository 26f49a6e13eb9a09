// SPDX-License-Identifier: GPL-3.0-or-later
// resctrl beyond x86 (docs/RESCTRL.md "Dialects", tests/data/resctrl/README.md): Arm MPAM, RISC-V CBQRI and
// self-describing controls with region-aware bandwidth, read from fixture trees written from their documentation,
// and what info/ files that are bad, too long or missing become.
#include "TestTree.h"
#include "rdt/AllocationRules.h"
#include "rdt/BandwidthUnit.h"
#include "rdt/CapabilitiesText.h"
#include "rdt/ResctrlBackend.h"
#include "rdt/Sample.h"
#include "rdt/VendorFeaturesText.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace rdt;
using rdt::test::TempTree;

namespace {
std::unique_ptr<ResctrlBackend> openTree(const TempTree& t)
{
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    EXPECT_TRUE(b.ok()) << (b ? "" : b.error().toString());
    return b ? std::move(*b) : nullptr;
}

Capabilities capsOf(const TempTree& t)
{
    auto b = openTree(t);
    if (!b) return {};
    auto c = b->capabilities();
    EXPECT_TRUE(c.ok()) << (c ? "" : c.error().toString());
    return c ? *c : Capabilities {};
}

Schemata schemata(const char* text)
{
    auto s = Schemata::parse(text);
    EXPECT_TRUE(s.ok());
    return s ? *s : Schemata {};
}
} // namespace

TEST(ResctrlDialects, MpamPortionsPercentOnCacheIdsAndNoLocalBandwidth)
{
    TempTree t("arm.mpam");
    const auto caps = capsOf(t);
    const auto* l3 = caps.resource("L3");
    const auto* l2 = caps.resource("L2");
    const auto* mb = caps.resource("MB");
    ASSERT_TRUE(l3 && l2 && mb);
    EXPECT_EQ(l3->cbmBits, 16u);
    EXPECT_EQ(l2->cbmBits, 8u);
    EXPECT_EQ(mb->bandwidthUnit, BandwidthUnit::Percent);
    EXPECT_EQ(mb->minBandwidth, 2u);
    EXPECT_EQ(mb->domains, std::vector<int>({ 1 })); // MB on the L3's cache id
    EXPECT_TRUE(caps.monitoring.mbmTotal);
    EXPECT_FALSE(caps.monitoring.mbmLocal);
    const auto text = formatResourceLines(caps) + formatGroupLimits(caps);
    EXPECT_NE(text.find("L3      cbm_mask ffff (16 portions)"), std::string::npos) << text;
    EXPECT_NE(text.find("local bandwidth: none"), std::string::npos) << text;
    EXPECT_NE(text.find("Documentation/arch/arm64/mpam.rst"), std::string::npos) << text;

    // The counter that does not exist is flagged absent (shown as unknown), the total read as it is.
    auto b = openTree(t);
    ASSERT_TRUE(b);
    auto g = b->readCounters("");
    ASSERT_TRUE(g.ok()) << g.error().toString();
    ASSERT_EQ(g->domains.size(), 1u);
    EXPECT_EQ(g->domains[0].mbmTotalRaw, 73400320u);
    EXPECT_TRUE(g->domains[0].flags & SampleMbmLocalAbsent);
    EXPECT_TRUE(g->domains[0].flags & kMbmLocalUnread);
    EXPECT_FALSE(g->domains[0].flags & kMbmTotalUnread);
}

TEST(ResctrlDialects, MpamUnderCdpSaysWhyThereIsNoMb)
{
    TempTree t("arm.mpam.cdp");
    const auto caps = capsOf(t);
    EXPECT_TRUE(caps.cdpL3);
    EXPECT_EQ(caps.resource("MB"), nullptr);
    const auto text = formatResourceLines(caps);
    EXPECT_NE(text.find("not offered while CDP is on"), std::string::npos) << text;
    // An x86 tree under CDP with MBM local counters says nothing of the kind.
    TempTree x86("resctrl.l2cdp");
    EXPECT_EQ(formatResourceLines(capsOf(x86)).find("not offered while CDP"), std::string::npos);
}

TEST(ResctrlDialects, CbqriReservationBudgetCheckedBeforeWriting)
{
    TempTree t("riscv.cbqri");
    const auto caps = capsOf(t);
    const auto* min = caps.resource("MB_MIN");
    const auto* weight = caps.resource("MB_WGHT");
    ASSERT_TRUE(min && weight);
    EXPECT_EQ(min->role, api::BandwidthRole::Reserved);
    EXPECT_EQ(min->bandwidthUnit, BandwidthUnit::Blocks);
    EXPECT_EQ(min->budget, 819u);
    EXPECT_EQ(min->budgetSource, "info/MB_MIN/resource_schemata/MB_MIN/max");
    EXPECT_EQ(min->domains, std::vector<int>({ 72 }));
    EXPECT_EQ(weight->role, api::BandwidthRole::Weight);
    EXPECT_EQ(weight->maxBandwidth, 255u);
    EXPECT_EQ(weight->minBandwidth, 0u);

    // The default group reserves 756 and another group 1: a third may take 62, not 63.
    std::vector<PeerGroup> peers { { "", false, schemata("MB_MIN:72=756\n") },
        { "a", false, schemata("MB_MIN:72=1\n") } };
    auto ok = validateAllocation(caps, "b", false, peers, schemata("MB_MIN:72=62\n"));
    EXPECT_TRUE(ok.ok) << ok.problem.reason;
    auto over = validateAllocation(caps, "b", false, peers, schemata("MB_MIN:72=63\n"));
    ASSERT_FALSE(over.ok);
    EXPECT_NE(over.problem.reason.find("budget of 819"), std::string::npos) << over.problem.reason;
    EXPECT_NE(over.problem.reason.find("at most 62"), std::string::npos) << over.problem.reason;
    EXPECT_FALSE(validateAllocation(caps, "b", false, peers, schemata("MB_WGHT:72=256\n")).ok);
    EXPECT_TRUE(validateAllocation(caps, "b", false, peers, schemata("MB_WGHT:72=0\n")).ok);
    EXPECT_EQ(formatBandwidth(*weight, 0), "weight 0 (no share of unreserved bandwidth)");
    EXPECT_EQ(formatBandwidth(*min, 62), "62 blocks");
}

TEST(ResctrlDialects, SelfDescribedRegionControlsAndTheirTriple)
{
    TempTree t("intel.mbregion");
    const auto caps = capsOf(t);
    const auto* mb = caps.resource("MB");
    ASSERT_TRUE(mb);
    ASSERT_TRUE(mb->description);
    EXPECT_EQ(mb->description->unit, "all");
    EXPECT_EQ(mb->bandwidthUnit, BandwidthUnit::Percent); // unit all, resolution 100: a percentage
    const auto* lo = caps.resource("MB_REGION0_MIN");
    ASSERT_TRUE(lo);
    EXPECT_EQ(lo->role, api::BandwidthRole::RegionMin);
    EXPECT_EQ(lo->region, 0);
    EXPECT_EQ(lo->infoDir, "MB");
    EXPECT_EQ(lo->numClosids, 8u); // MB's
    EXPECT_EQ(lo->bandwidthUnit, BandwidthUnit::Described);
    EXPECT_EQ(lo->minBandwidth, 1u);
    EXPECT_EQ(lo->maxBandwidth, 511u);
    EXPECT_EQ(lo->domains, std::vector<int>({ 0, 1 }));
    // Schemata order, as the kernel lists them.
    std::vector<std::string> names;
    for (const auto& r : caps.resources)
        names.push_back(r.name);
    EXPECT_EQ(names, std::vector<std::string>({ "L3", "MB", "MB_REGION0_MIN", "MB_REGION0_OPT", "MB_REGION0_MAX" }));
    // A value in the description's terms: 511 of resolution 511 in unit "all" is the whole region.
    EXPECT_EQ(formatBandwidth(*lo, 511), "100.0 %");
    auto half = parseBandwidthInput(*lo, "50%");
    ASSERT_TRUE(half.ok());
    EXPECT_EQ(*half, 256u);
    EXPECT_FALSE(parseBandwidthInput(*lo, "2GB/s").ok());

    const Schemata current
        = schemata("MB_REGION0_MIN:0=1;1=1\nMB_REGION0_OPT:0=300;1=300\nMB_REGION0_MAX:0=400;1=400\n");
    auto bad = validateAllocation(caps, "g", false, {}, schemata("MB_REGION0_MIN:0=350\n"), &current);
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(bad.problem.reason.find("min <= opt <= max"), std::string::npos) << bad.problem.reason;
    EXPECT_NE(bad.problem.reason.find("min 350, opt 300, max 400"), std::string::npos) << bad.problem.reason;
    auto lowerMax = validateAllocation(caps, "g", false, {}, schemata("MB_REGION0_MAX:1=200\n"), &current);
    EXPECT_FALSE(lowerMax.ok);
    auto together
        = validateAllocation(caps, "g", false, {}, schemata("MB_REGION0_OPT:1=150\nMB_REGION0_MAX:1=200\n"), &current);
    EXPECT_TRUE(together.ok) << together.problem.reason;
    EXPECT_FALSE(validateAllocation(caps, "g", false, {}, schemata("MB_REGION0_MAX:0=512\n"), &current).ok);
}

TEST(ResctrlDialects, DescriptionFilesBadTooLongOrMissingAreUnknownWithTheReason)
{
    TempTree t("intel.mbregion");
    const std::string base = "info/MB/resource_schemata/MB_REGION0_MAX/";
    t.write(base + "max", "lots\n");
    t.write(base + "unit", std::string(200, 'x') + "\n");
    std::filesystem::remove(t.root() + "/" + base + "scale");
    t.write("info/MB/resource_schemata/MB_REGION0_OPT/min", "600\n"); // above its max of 511
    t.write("info/MB/resource_schemata/MB_REGION0_MIN/type", "scalar\nlinear\n");
    std::filesystem::create_directories(t.root() + "/info/MB/resource_schemata/bad name");
    auto b = openTree(t);
    ASSERT_TRUE(b);
    auto caps = b->capabilities();
    ASSERT_TRUE(caps.ok());
    const auto* hi = caps->resource("MB_REGION0_MAX");
    ASSERT_TRUE(hi && hi->description);
    EXPECT_FALSE(hi->description->max);
    EXPECT_TRUE(hi->description->unit.empty());
    EXPECT_FALSE(hi->description->scale);
    EXPECT_FALSE(hi->origins.known("max_bandwidth"));
    EXPECT_EQ(formatBandwidth(*hi, 100), "100 (meaning unknown)");
    std::string unknown;
    for (const auto& u : hi->description->unknown)
        unknown += u + "\n";
    EXPECT_NE(unknown.find("holds 'lots', not a whole number"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("unit is longer than 64 characters"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("scale is missing"), std::string::npos) << unknown;
    const auto* opt = caps->resource("MB_REGION0_OPT");
    ASSERT_TRUE(opt && opt->description);
    EXPECT_FALSE(opt->description->min);
    EXPECT_FALSE(opt->description->max);
    // A type of two lines is not a type: the control is not offered, and the warnings say why.
    EXPECT_EQ(caps->resource("MB_REGION0_MIN"), nullptr);
    std::string warnings;
    for (const auto& w : b->warnings())
        warnings += w + "\n";
    EXPECT_NE(warnings.find("'bad name', which is no schemata name"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find("MB_REGION0_MIN"), std::string::npos) << warnings;
}

TEST(ResctrlDialects, RecordedCapabilitiesKeepBudgetAndDescription)
{
    TempTree cb("riscv.cbqri");
    TempTree mr("intel.mbregion");
    for (const auto* t : { &cb, &mr }) {
        const auto caps = capsOf(*t);
        const auto recorded = parseCapabilitiesText(formatCapabilitiesText(caps));
        for (const auto& r : caps.resources) {
            if (r.isCache()) continue;
            const auto it = std::find_if(
                recorded.begin(), recorded.end(), [&](const RecordedResource& x) { return x.caps.name == r.name; });
            ASSERT_NE(it, recorded.end()) << r.name;
            const auto& back = it->caps;
            EXPECT_EQ(back.bandwidthUnit, r.bandwidthUnit) << r.name;
            EXPECT_EQ(back.role, r.role) << r.name;
            EXPECT_EQ(back.region, r.region) << r.name;
            EXPECT_EQ(back.budget, r.budget) << r.name;
            EXPECT_EQ(back.minBandwidth, r.minBandwidth) << r.name;
            EXPECT_EQ(back.maxBandwidth, r.maxBandwidth) << r.name;
            EXPECT_EQ(formatBandwidth(back, 300), formatBandwidth(r, 300)) << r.name;
            EXPECT_EQ(describeBandwidthUnit(back), describeBandwidthUnit(r)) << r.name;
        }
    }
}

// The RFC's info/<RES>/mode ("[legacy] native"): the bracketed mode is the active one, and `info` shows both; a tree
// without the file (every kernel before the RFC) shows no mode at all rather than a default.
TEST(ResctrlDialects, BandwidthModeFileIsReadAndShown)
{
    TempTree t("intel.mbregion");
    const auto caps = capsOf(t);
    const auto* mb = caps.resource("MB");
    ASSERT_TRUE(mb);
    EXPECT_EQ(mb->mode, "legacy");
    EXPECT_EQ(mb->modes, std::vector<std::string>({ "legacy", "native" }));
    const std::string text = formatResourceLines(caps);
    EXPECT_NE(text.find("mode legacy (of legacy native)"), std::string::npos) << text;
    std::filesystem::remove(t.root() + "/info/MB/mode");
    const auto without = capsOf(t);
    ASSERT_TRUE(without.resource("MB"));
    EXPECT_TRUE(without.resource("MB")->mode.empty());
    EXPECT_EQ(formatResourceLines(without).find("mode "), std::string::npos);
}

// Arm MPAM under CDP: no MB, and the engine says why (the text and the layout the GUI reads share the reason).
TEST(ResctrlDialects, MpamUnderCdpSaysWhyThereIsNoBandwidth)
{
    TempTree t("arm.mpam.cdp");
    const auto caps = capsOf(t);
    EXPECT_EQ(caps.resource("MB"), nullptr);
    const std::string why = caps.bandwidthAbsentReason();
    EXPECT_NE(why.find("not offered while CDP is on"), std::string::npos) << why;
    EXPECT_NE(formatResourceLines(caps).find("MB      " + why), std::string::npos);
    TempTree plain("arm.mpam");
    EXPECT_TRUE(capsOf(plain).bandwidthAbsentReason().empty());
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The one allocation validator (rdt/AllocationRules.h), as a table: each row is a machine (capabilities), the
// other groups, a change and the verdict. The engine runs it before writing; the GUI colours staged edits by it.
#include "rdt/AllocationRules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace rdt;

namespace {

ResourceCaps cache(const std::string& name, std::uint64_t cbmMask, unsigned minBits = 1, std::uint64_t shareable = 0,
    bool sparse = false)
{
    ResourceCaps r;
    r.name = name;
    r.kind = ResourceKind::Cache;
    r.domains = { 0, 1 };
    r.cbmMask = cbmMask;
    r.minCbmBits = minBits;
    r.shareableBits = shareable;
    r.sparseMasks = sparse;
    return r;
}

ResourceCaps bandwidth(unsigned min, unsigned gran, unsigned max, bool mbps = false)
{
    ResourceCaps r;
    r.name = "MB";
    r.kind = ResourceKind::Bandwidth;
    r.domains = { 0, 1 };
    r.minBandwidth = min;
    r.bandwidthGran = gran;
    r.maxBandwidth = max;
    r.mbpsMode = mbps;
    return r;
}

Capabilities machine(std::vector<ResourceCaps> resources)
{
    Capabilities c;
    c.resources = std::move(resources);
    return c;
}

// Skylake-SP: 11-way L3, min_cbm_bits 2, DDIO holds ways 9-10 (shareable_bits 600), MB in steps of 10 %.
const Capabilities kSkx = machine({ cache("L3", 0x7ff, 2, 0x600), bandwidth(10, 10, 100) });
// The same with CDP on: L3CODE and L3DATA masks of one CLOS cover the same ways.
const Capabilities kSkxCdp = machine({ cache("L3CODE", 0x7ff, 2, 0x600), cache("L3DATA", 0x7ff, 2, 0x600) });
// A part that enumerates sparse masks (CPUID.10H.1:ECX[3]) and allows an empty mask (min_cbm_bits 0).
const Capabilities kSparse = machine({ cache("L3", 0xfff, 0, 0, true) });
// AMD: MB values are in 1/8 GB/s units up to 2048, granularity 1, minimum 0 (AMD PQoS, resctrl on AMD).
const Capabilities kAmd = machine({ cache("L3", 0xffff, 1), bandwidth(0, 1, 2048) });
// resctrl mounted with -o mba_MBps: MB values are MiBps targets, any u32.
const Capabilities kMbps = machine({ bandwidth(10, 10, 100, true) });

Schemata lines(const char* text)
{
    auto s = Schemata::parseStrict(text);
    EXPECT_TRUE(s.ok()) << text;
    return s.ok() ? *s : Schemata {};
}

PeerGroup peer(const char* path, bool exclusive, const char* schemata)
{
    return { path, exclusive, lines(schemata) };
}

struct Case {
    const char* what;
    const Capabilities* caps;
    const char* group;
    bool exclusive;
    std::vector<PeerGroup> peers;
    const char* change;
    const char* reason; ///< nullptr: accepted; else the problem's reason, exactly
    const char* normalised = nullptr; ///< when accepted: the formatted normalised change
    const char* note = nullptr; ///< when accepted: the one rounding note expected (nullptr: none)
};

} // namespace

TEST(AllocationRules, Table)
{
    const Case cases[] = {
        // Zero masks: refused while min_cbm_bits > 0 (cbm_validate), allowed when it is 0.
        { "zero mask", &kSkx, "p0", false, {}, "L3:0=0", "Mask out of range" },
        { "zero mask, min_cbm_bits 0", &kSparse, "p0", false, {}, "L3:0=0", nullptr, "L3:0=0\n" },
        // Range and min_cbm_bits.
        { "bits beyond cbm_mask", &kSkx, "p0", false, {}, "L3:0=800", "Mask out of range" },
        { "one bit, two needed", &kSkx, "p0", false, {}, "L3:0=8", "Need at least 2 bits in the mask" },
        { "two bits", &kSkx, "p0", false, {}, "L3:0=18", nullptr, "L3:0=18\n" },
        // Contiguity, and sparse masks where the CPU enumerates them.
        { "hole in the mask", &kSkx, "p0", false, {}, "L3:0=30f", "The mask 30f has non-consecutive 1-bits" },
        { "sparse allowed", &kSparse, "p0", false, {}, "L3:0=f0f", nullptr, "L3:0=f0f\n" },
        { "padded and prefixed text normalised", &kSkx, "p0", false, {}, "L3:0=0x003f0;1=7ff", nullptr,
            "L3:0=3f0;1=7ff\n" },
        // Shareable (hardware-shared) bits: fine for a shareable group, refused for an exclusive one.
        { "shareable group on DDIO ways", &kSkx, "p0", false, {}, "L3:0=600", nullptr, "L3:0=600\n" },
        { "exclusive group on DDIO ways", &kSkx, "p0", true, {}, "L3:0=700", "Overlaps with hardware-shared bits 600" },
        // Overlaps: any group may not touch an exclusive group's bits; an exclusive group may touch nobody's.
        { "overlap with exclusive group", &kSkx, "p0", false, { peer("gold", true, "L3:0=0f0;1=0f0") }, "L3:0=180",
            "Overlaps with exclusive group 'gold' (L3 f0)" },
        { "overlap in another domain only", &kSkx, "p0", false, { peer("gold", true, "L3:0=0f0;1=00f") }, "L3:1=0f0",
            nullptr, "L3:1=f0\n" },
        { "exclusive group overlapping a shareable one", &kSkx, "gold", true, { peer("", false, "L3:0=7ff;1=7ff") },
            "L3:0=3", "Overlaps with other group 'default' (L3 7ff)" },
        { "shareable groups may overlap", &kSkx, "p0", false, { peer("p1", false, "L3:0=0f0;1=0f0") }, "L3:0=1f0",
            nullptr, "L3:0=1f0\n" },
        // CDP: a CODE mask is checked against other groups' DATA masks too (same ways), and CODE/DATA pair up.
        { "CDP peer of an exclusive group", &kSkxCdp, "p0", false,
            { peer("gold", true, "L3CODE:0=003;1=003\nL3DATA:0=0f0;1=0f0") }, "L3CODE:0=180",
            "Overlaps with exclusive group 'gold' (L3DATA f0)" },
        { "CDP pair written together", &kSkxCdp, "p0", false, {}, "L3CODE:0=f\nL3DATA:0=f0", nullptr,
            "L3CODE:0=f\nL3DATA:0=f0\n" },
        { "plain L3 line under CDP", &kSkxCdp, "p0", false, {}, "L3:0=f", "Unknown or unsupported resource name 'L3'" },
        // MB: range [min_bandwidth, 100], then rounded up to bandwidth_gran as bw_validate does.
        { "MB below min_bandwidth", &kSkx, "p0", false, {}, "MB:0=5", "MB value 5 out of range [10,100]" },
        { "MB above 100", &kSkx, "p0", false, {}, "MB:0=101", "MB value 101 out of range [10,100]" },
        { "MB rounded up", &kSkx, "p0", false, {}, "MB:0=71;1=80", nullptr, "MB:0=80;1=80\n",
            "MB:0 71 rounded up to 80 (bandwidth_gran 10)" },
        { "MB 95 rounds to 100", &kSkx, "p0", false, {}, "MB:0=95", nullptr, "MB:0=100\n",
            "MB:0 95 rounded up to 100 (bandwidth_gran 10)" },
        { "MBps mode takes any u32", &kMbps, "p0", false, {}, "MB:0=2500", nullptr, "MB:0=2500\n" },
        { "MBps mode beyond u32", &kMbps, "p0", false, {}, "MB:0=4294967296",
            "MB value out of range (MiBps, 32 bits)" },
        // AMD-style MB: 1/8 GB/s units, no rounding, up to 2048.
        { "AMD MB in 1/8 GB/s units", &kAmd, "p0", false, {}, "MB:0=2048;1=0", nullptr, "MB:0=2048;1=0\n" },
        { "AMD MB odd value kept", &kAmd, "p0", false, {}, "MB:0=37", nullptr, "MB:0=37\n" },
        { "AMD MB above 2048", &kAmd, "p0", false, {}, "MB:0=2049", "MB value 2049 out of range [0,2048]" },
        // Unknown schemata lines and domains.
        { "unknown resource", &kSkx, "p0", false, {}, "L2:0=f", "Unknown or unsupported resource name 'L2'" },
        { "made-up resource", &kSkx, "p0", false, {}, "XYZ:0=1", "Unknown or unsupported resource name 'XYZ'" },
        { "unknown domain", &kSkx, "p0", false, {}, "L3:9=ff", "Unknown domain L3:9" },
        { "monitor group", &kSkx, "p0/mon_groups/m1", false, {}, "L3:0=ff",
            "'p0/mon_groups/m1' is a monitor group: it has no allocation of its own" },
    };
    for (const auto& c : cases) {
        const auto v = validateAllocation(*c.caps, c.group, c.exclusive, c.peers, lines(c.change));
        if (!c.reason) {
            ASSERT_TRUE(v.ok) << c.what << ": " << v.problem.reason;
            EXPECT_EQ(v.normalised.format(), c.normalised) << c.what;
            if (c.note) {
                ASSERT_EQ(v.notes.size(), 1u) << c.what;
                EXPECT_EQ(v.notes[0], c.note) << c.what;
            } else {
                EXPECT_TRUE(v.notes.empty()) << c.what;
            }
        } else {
            ASSERT_FALSE(v.ok) << c.what;
            EXPECT_EQ(v.problem.reason, c.reason) << c.what;
            EXPECT_FALSE(v.problem.advice.empty() && std::string(c.reason).find("MiBps") == std::string::npos)
                << c.what << ": no advice";
        }
    }
}

TEST(AllocationRules, ProblemsNameWhereAndBecomeEinval)
{
    const auto v = validateAllocation(kSkx, "p0", false, {}, lines("L3:1=30f"));
    ASSERT_FALSE(v.ok);
    EXPECT_EQ(v.problem.where(), "L3:1");
    const auto e = v.problem.toError();
    EXPECT_EQ(e.code, EINVAL);
    EXPECT_EQ(e.message, "L3:1: The mask 30f has non-consecutive 1-bits");
    EXPECT_NE(e.advice.find("contiguous"), std::string::npos);
}

TEST(AllocationRules, FirstProblemWinsAndNothingIsNormalised)
{
    const auto v = validateAllocation(kSkx, "p0", false, {}, lines("L3:0=ff\nMB:0=5"));
    ASSERT_FALSE(v.ok);
    EXPECT_TRUE(v.normalised.empty());
    EXPECT_EQ(v.problem.where(), "MB:0");
}

TEST(AllocationRules, ContiguityHelper)
{
    EXPECT_TRUE(isContiguous(0));
    EXPECT_TRUE(isContiguous(0x7f0));
    EXPECT_TRUE(isContiguous(~0ull));
    EXPECT_FALSE(isContiguous(0x101));
    EXPECT_EQ(cdpPeer("L3CODE"), "L3DATA");
    EXPECT_EQ(cdpPeer("L2DATA"), "L2CODE");
    EXPECT_EQ(cdpPeer("L3"), "");
}

// SPDX-License-Identifier: GPL-3.0-or-later
// SimMsrSpace: reset values, #GP(0) rules, IA32_QM_CTR Error/Unavailable/Overflow, CDP re-indexing (table-driven).
#include "SimTestUtil.h"

#include "sim/SimMsrSpace.h"
#include "sim/SimResctrlFs.h"

#include <cerrno>

using namespace rdt;
using namespace rdt::sim;
using namespace rdt::sim::test;

namespace {

struct MsrCase {
    const char* what;
    std::string preset;
    std::vector<std::pair<std::string, std::uint64_t>> overrides;
    bool write;
    std::uint32_t msr;
    std::uint64_t value; ///< value to write, or the value a read must return
    const char* gp; ///< nullptr: must succeed; else a substring of the #GP message
};

const std::vector<MsrCase>& cases()
{
    static const std::vector<MsrCase> t = {
        // Reset values (20.18.6: PQR 0; 20.19.5: masks all 1s, QOS_CFG 0; MBA/CBA 0).
        { "PQR_ASSOC resets to 0", "skx-6154", {}, false, 0xC8F, 0, nullptr },
        { "QM_EVTSEL resets to 0", "skx-6154", {}, false, 0xC8D, 0, nullptr },
        { "L3_MASK_0 resets to all ones", "skx-6154", {}, false, 0xC90, 0x7FF, nullptr },
        { "L3_MASK_15 resets to all ones", "skx-6154", {}, false, 0xC9F, 0x7FF, nullptr },
        { "MBA delay resets to 0", "skx-6154", {}, false, 0xD50, 0, nullptr },
        { "L3_QOS_CFG resets to 0", "bdw-6850k", {}, false, 0xC81, 0, nullptr },
        { "L2_MASK_0 resets to all ones", "skx-6154", { { "l2_cat", 8 } }, false, 0xD10, 0xFF, nullptr },
        { "CBA resets to 0", "skx-6154", { { "cba", 9 } }, false, 0xE00, 0, nullptr },
        // IA32_PQR_ASSOC (20.18.8.1, 20.19.6.3): RMID width Ceil(Log2(1+143)) = 8, CLOS width Ceil(Log2(16)) = 4.
        { "PQR RMID = max", "skx-6154", {}, true, 0xC8F, 143, nullptr },
        { "PQR RMID above max", "skx-6154", {}, true, 0xC8F, 144, "exceeds the maximum RMID 143" },
        { "PQR RMID beyond field", "skx-6154", {}, true, 0xC8F, 256, "reserved bit" },
        { "PQR reserved bit 20", "skx-6154", {}, true, 0xC8F, 1ull << 20, "reserved bit" },
        { "PQR CLOS = max", "skx-6154", {}, true, 0xC8F, 15ull << 32, nullptr },
        { "PQR CLOS beyond field", "skx-6154", {}, true, 0xC8F, 16ull << 32, "reserved bit" },
        { "PQR CLOS above max within field", "icx-8351n", {}, true, 0xC8F, 15ull << 32, "exceeds the maximum CLOS 14" },
        { "PQR on a CPU without RDT", "icx-d1718t", {}, false, 0xC8F, 0, "not implemented" },
        // IA32_QM_EVTSEL (20.18.7): EvtID 7:0, RMID 41:32.
        { "EVTSEL valid", "skx-6154", {}, true, 0xC8D, (5ull << 32) | 2, nullptr },
        { "EVTSEL reserved bit 8", "skx-6154", {}, true, 0xC8D, 0x100, "reserved bit" },
        { "EVTSEL RMID above max", "skx-6154", {}, true, 0xC8D, 144ull << 32, "exceeds the maximum RMID" },
        { "EVTSEL reserved bit 42", "skx-6154", {}, true, 0xC8D, 1ull << 42, "reserved bit" },
        { "QM_CTR is read-only", "skx-6154", {}, true, 0xC8E, 0, "read-only" },
        // CAT masks (20.19.2, 20.19.4.3, 20.19.6.3).
        { "L3 mask contiguous", "skx-6154", {}, true, 0xC91, 0x7F0, nullptr },
        { "L3 mask zero", "skx-6154", {}, true, 0xC91, 0, "zero capacity bitmask" },
        { "L3 mask non-contiguous", "skx-6154", {}, true, 0xC91, 0x505, "not contiguous" },
        { "L3 mask non-contiguous allowed", "skx-6154", { { "l3_sparse", 1 } }, true, 0xC91, 0x505, nullptr },
        { "L3 mask beyond CBM length", "skx-6154", {}, true, 0xC91, 0xFFF, "reserved bit" },
        { "L3 mask outside CLOS (write)", "skx-6154", {}, true, 0xCA0, 0x7FF, "outside the supported CLOS" },
        { "L3 mask outside CLOS (read)", "skx-6154", {}, false, 0xCA0, 0, "outside the supported CLOS" },
        { "L3 mask without L3 CAT", "hsw-2699v3", {}, false, 0xC90, 0, "no L3 CAT" },
        { "L2 mask without L2 CAT", "skx-6154", {}, true, 0xD10, 1, "no L2 CAT" },
        { "L2 mask beyond CBM length", "skx-6154", { { "l2_cat", 8 } }, true, 0xD10, 0x100, "reserved bit" },
        { "L2 mask outside CLOS", "skx-6154", { { "l2_cat", 8 } }, true, 0xD18, 1, "outside the supported CLOS" },
        // QOS_CFG (20.19.5, 20.19.6).
        { "L3_QOS_CFG without CDP", "icx-8351n", {}, false, 0xC81, 0, "only with L3 CDP" },
        { "L3_QOS_CFG enable", "bdw-6850k", {}, true, 0xC81, 1, nullptr },
        { "L3_QOS_CFG reserved bit", "bdw-6850k", {}, true, 0xC81, 2, "reserved bits 63:1" },
        { "L2_QOS_CFG without L2 CDP", "skx-6154", { { "l2_cat", 8 } }, true, 0xC82, 1, "only with L2 CDP" },
        { "L2_QOS_CFG enable", "skx-6154", { { "l2_cat", 8 }, { "l2_cdp", 1 } }, true, 0xC82, 1, nullptr },
        // MBA (20.19.7.2): delay 0..MBA_MAX (90), bits 63:16 reserved, CLOS < 8.
        { "MBA delay max", "skx-6154", {}, true, 0xD51, 90, nullptr },
        { "MBA delay above max", "skx-6154", {}, true, 0xD51, 91, "above MBA_MAX 90" },
        { "MBA reserved bits", "skx-6154", {}, true, 0xD51, 0x10000, "reserved bits 63:16" },
        { "MBA outside CLOS", "skx-6154", {}, true, 0xD58, 10, "outside the MBA CLOS" },
        { "MBA without MBA", "bdw-6850k", {}, true, 0xD50, 10, "no MBA" },
        // CBA (20.19.8.3): packed 8-bit levels 0..max, E00H + ((CLOS_MAX+1)/8 - 1).
        { "CBA levels", "skx-6154", { { "cba", 9 } }, true, 0xE00, 0x0900000000000509ull, nullptr },
        { "CBA level above max", "skx-6154", { { "cba", 9 } }, true, 0xE01, 0x0A00, "above CBA_MAX_Throttle_Level 9" },
        { "CBA beyond MSR range", "skx-6154", { { "cba", 9 } }, true, 0xE02, 0, "beyond E00H" },
        { "CBA without CBA", "skx-6154", {}, false, 0xE00, 0, "no CBA" },
        { "unknown MSR", "skx-6154", {}, false, 0x10, 0, "not implemented" },
        { "unknown MSR (write)", "skx-6154", {}, true, 0x10, 0, "not implemented" },
        // Absent MSRs fault on RDMSR as on WRMSR.
        { "EVTSEL without monitoring (write)", "icx-d1718t", {}, true, 0xC8D, 0, "no RDT monitoring" },
        { "L2 mask outside CLOS (read)", "skx-6154", { { "l2_cat", 8 } }, false, 0xD18, 0,
            "outside the supported CLOS" },
        { "L2_QOS_CFG without L2 CDP (read)", "skx-6154", { { "l2_cat", 8 } }, false, 0xC82, 0, "only with L2 CDP" },
        { "MBA outside CLOS (read)", "skx-6154", {}, false, 0xD58, 0, "outside the MBA CLOS" },
        { "MBA without MBA (read)", "bdw-6850k", {}, false, 0xD50, 0, "no MBA" },
        { "CBA beyond MSR range (read)", "skx-6154", { { "cba", 9 } }, false, 0xE02, 0, "beyond E00H" },
    };
    return t;
}

} // namespace

TEST(SimMsrSpace, TableOfRules)
{
    for (const auto& c : cases()) {
        SCOPED_TRACE(c.what);
        auto m = makeMachine(MachineArgs { c.preset, 2, 1, 64, c.overrides });
        SimMsrSpace msr(*m);
        if (c.write) {
            auto s = msr.write(1, c.msr, c.value);
            if (c.gp) {
                ASSERT_FALSE(s.ok());
                EXPECT_EQ(s.error().code, EIO);
                EXPECT_NE(s.error().message.find("#GP(0)"), std::string::npos) << s.error().message;
                EXPECT_NE(s.error().message.find(c.gp), std::string::npos) << s.error().message;
            } else {
                ASSERT_TRUE(s.ok()) << s.error().toString();
                auto back = msr.read(1, c.msr);
                ASSERT_TRUE(back.ok());
                EXPECT_EQ(*back, c.value) << "read back";
            }
        } else {
            auto r = msr.read(1, c.msr);
            if (c.gp) {
                ASSERT_FALSE(r.ok());
                EXPECT_EQ(r.error().code, EIO);
                EXPECT_NE(r.error().message.find(c.gp), std::string::npos) << r.error().message;
            } else {
                ASSERT_TRUE(r.ok()) << r.error().toString();
                EXPECT_EQ(*r, c.value);
            }
        }
    }
}

// An MSR the processor does not implement (feature absent, or index beyond the enumerated CLOS) faults with the same
// rule whether it is read or written: a value never matters for a missing MSR.
TEST(SimMsrSpace, AbsentMsrsFaultAlikeOnReadAndWrite)
{
    const std::vector<std::pair<std::string, std::uint32_t>> absent = {
        { "icx-d1718t", 0xC8F },
        { "icx-d1718t", 0xC8D },
        { "icx-d1718t", 0xC8E },
        { "skx-6154", 0xCA0 },
        { "hsw-2699v3", 0xC90 },
        { "skx-6154", 0xD10 },
        { "icx-8351n", 0xC81 },
        { "skx-6154", 0xC82 },
        { "skx-6154", 0xD58 },
        { "bdw-6850k", 0xD50 },
        { "skx-6154", 0xE00 },
        { "skx-6154", 0x10 },
    };
    for (const auto& [preset, address] : absent) {
        SCOPED_TRACE(preset + " " + std::to_string(address));
        auto m = makeMachine(MachineArgs { preset, 2, 1, 64, {} });
        SimMsrSpace msr(*m);
        auto r = msr.read(0, address);
        auto w = msr.write(0, address, 1);
        ASSERT_FALSE(r.ok());
        ASSERT_FALSE(w.ok());
        auto rule = [](const std::string& s) { return s.substr(s.find("#GP(0)")); };
        EXPECT_EQ(rule(r.error().message), rule(w.error().message));
        EXPECT_EQ(r.error().message.rfind("RDMSR ", 0), 0u) << r.error().message;
        EXPECT_EQ(w.error().message.rfind("WRMSR ", 0), 0u) << w.error().message;
    }
}

TEST(SimMsrSpace, ScopesFollowTheCaches)
{
    auto cpuid = presetCpuid("skx-6154");
    SimOptions o;
    o.topology.sockets = 2;
    o.topology.coresPerSocket = 2;
    auto m = SimMachine::create(*cpuid, o);
    ASSERT_TRUE(m.ok());
    SimMsrSpace msr(**m);
    ASSERT_TRUE(msr.write(0, 0xC91, 0x00F).ok()); // L3 mask: socket scope
    EXPECT_EQ(*msr.read(1, 0xC91), 0x00Fu);
    EXPECT_EQ(*msr.read(2, 0xC91), 0x7FFu);
    ASSERT_TRUE(msr.write(0, 0xC8F, (3ull << 32) | 7).ok()); // PQR: per logical CPU
    EXPECT_EQ(*msr.read(1, 0xC8F), 0u);
    EXPECT_EQ(msr.read(9, 0xC8F).error().code, ENXIO);
}

TEST(SimMsrSpace, QmCtrErrorUnavailableAndData)
{
    auto m = makeMachine();
    SimMsrSpace msr(*m);
    auto t = m->addThread("t", 0, spec(Pattern::Stream, 64ull << 20));
    ASSERT_TRUE(msr.write(0, 0xC8F, 5).ok()); // CPU 0 runs with RMID 5
    m->advance(5 * kMs);
    ASSERT_TRUE(msr.write(0, 0xC8D, (5ull << 32) | 1).ok());
    auto occ = msr.read(0, 0xC8E);
    ASSERT_TRUE(occ.ok());
    EXPECT_EQ(*occ >> 62, 0u);
    EXPECT_EQ(*occ, m->occupancyBytes(0, 5) / m->features().mon.scale);
    EXPECT_GT(*occ, 0u);
    ASSERT_TRUE(msr.write(0, 0xC8D, (5ull << 32) | 4).ok()); // event 4 is reserved (Table 20-18)
    EXPECT_EQ(*msr.read(0, 0xC8E), msr::QM_CTR_ERROR);
    ASSERT_TRUE(msr.write(0, 0xC8D, (5ull << 32) | 2).ok());
    m->setUnavailable(0, 5, m->nowNs() + 2 * kMs);
    EXPECT_EQ(*msr.read(0, 0xC8E), msr::QM_CTR_UNAVAILABLE);
    m->advance(3 * kMs);
    EXPECT_EQ(*msr.read(0, 0xC8E) >> 61, 0u);
    (void)t;

    auto hsw = makeMachine(MachineArgs { "hsw-2699v3", 1, 1, 64, {} }); // CMT only: MBM events are unsupported
    SimMsrSpace hmsr(*hsw);
    ASSERT_TRUE(hmsr.write(0, 0xC8D, (1ull << 32) | 2).ok());
    EXPECT_EQ(*hmsr.read(0, 0xC8E), msr::QM_CTR_ERROR);
    ASSERT_TRUE(hmsr.write(0, 0xC8D, (1ull << 32) | 1).ok());
    EXPECT_EQ(*hmsr.read(0, 0xC8E) >> 62, 0u);
}

// MBM counters have the enumerated width and wrap; a reader that differences them modulo 2^width at least once
// per wrap gets exactly the bytes the model moved (in counter units), across many wraps.
TEST(SimMsrSpace, MbmExactAcross24BitWraps)
{
    auto m = makeMachine(MachineArgs { "skx-6154", 1, 1, 1024, { { "mbm_scale", 64 } } });
    SimMsrSpace msr(*m);
    WorkloadSpec w = spec(Pattern::Stream, 4ull << 30);
    w.writeFraction = 0.5;
    auto t = m->addThread("copy", 0, w);
    ASSERT_TRUE(msr.write(0, 0xC8F, 1).ok());
    ASSERT_TRUE(msr.write(0, 0xC8D, (1ull << 32) | 2).ok());
    const std::uint64_t mask = (1ull << 24) - 1;
    std::uint64_t prev = *msr.read(0, 0xC8E), sum = 0;
    for (int i = 0; i < 50; ++i) {
        m->advance(20 * kMs);
        std::uint64_t cur = *msr.read(0, 0xC8E);
        EXPECT_EQ(cur & ~mask, 0u) << "24-bit counter";
        sum += (cur - prev) & mask;
        prev = cur;
    }
    EXPECT_GT(m->counterWraps(0, 1, 2), 3u) << "the test must cross several wraps";
    EXPECT_EQ(sum, m->counters(0, 1).totalBytes / 64);
    (void)t;
}

TEST(SimMsrSpace, OverflowBitSetOnWrapAndResetOnRead)
{
    auto m = makeMachine(MachineArgs { "skx-6154", 1, 1, 1024, { { "mbm_scale", 64 }, { "overflow_bit", 1 } } });
    SimMsrSpace msr(*m);
    auto t = m->addThread("copy", 0, spec(Pattern::Stream, 4ull << 30));
    ASSERT_TRUE(msr.write(0, 0xC8F, 1).ok());
    ASSERT_TRUE(msr.write(0, 0xC8D, (1ull << 32) | 2).ok());
    EXPECT_EQ(*msr.read(0, 0xC8E) & msr::QM_CTR_OVERFLOW, 0u);
    const std::uint64_t wraps = m->counterWraps(0, 1, 2);
    while (m->counterWraps(0, 1, 2) == wraps)
        m->advance(5 * kMs);
    EXPECT_NE(*msr.read(0, 0xC8E) & msr::QM_CTR_OVERFLOW, 0u);
    EXPECT_EQ(*msr.read(0, 0xC8E) & msr::QM_CTR_OVERFLOW, 0u) << "bit 61 resets upon read";
    (void)t;
}

// Table 20-19: with CDP, mask 2n is CLOS n's data mask and 2n+1 its code mask; resctrl's L3DATA/L3CODE lines are
// those MSRs.
TEST(SimMsrSpace, CdpReindexing)
{
    auto m = makeMachine(MachineArgs { "bdw-6850k", 2, 1, 64, {} });
    ResctrlMountOptions opts;
    opts.cdp = true;
    auto fs = SimResctrlFs::mount(*m, opts);
    ASSERT_TRUE(fs.ok()) << fs.error().toString();
    ASSERT_TRUE((*fs)->mkdir("p1").ok());
    SimMsrSpace msr(*m);
    EXPECT_EQ(*msr.read(0, 0xC81), 1u) << "mount -o cdp sets IA32_L3_QOS_CFG.CDP";
    ASSERT_TRUE(msr.write(0, 0xC92, 0x0000F).ok()); // CLOS 1 data
    ASSERT_TRUE(msr.write(0, 0xC93, 0xF0000).ok()); // CLOS 1 code
    EXPECT_EQ(*(*fs)->read("p1/schemata"), "L3CODE:0=f0000\nL3DATA:0=f\n");
    ASSERT_TRUE((*fs)->write("p1/schemata", "L3DATA:0=ff0\n").ok());
    EXPECT_EQ(*msr.read(0, 0xC92), 0xFF0u);
    EXPECT_EQ(*msr.read(0, 0xC93), 0xF0000u);
    // The cache uses them: CLOS 1 data may fill ways 4-11 (one way per bit), code ways 16-19.
    m->setPqr(0, { 1, 0 });
    EXPECT_EQ(m->waysOfL3Cbm(0xFF0), 0xFF0u);
}

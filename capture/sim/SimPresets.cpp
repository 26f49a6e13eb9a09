// SPDX-License-Identifier: GPL-3.0-or-later
// Preset processors of the simulator: raw CPUID register values of real Intel CPUs.
//
// Source: the InstLatx64 CPUID dump collection (AIDA64 text format), files named below; the collection carries no
// licence, so only the raw register values of the leaves the simulator needs are embedded here (leaves 0, 1, 4,
// 7, 0BH, 0FH, 10H and the brand string 80000002H-80000004H, logical CPU #0), not the dumps themselves.
// None of these dumps contain leaf 10H subleaf 2 (L2 CAT) or 3 (MBA) (docs/RESCTRL.md "CPUID dumps"):
// synthesizeMissingLeaves() adds them where 10H.0:EBX enumerates them, and says so in SimCpuid::notes.
//
// epyc-genoa is the exception: no AMD dump is in the collection we embed from, so its registers are written from
// the AMD64 Architecture Programmer's Manual vol. 3 (CPUID Fn0000_000F, Fn0000_0010, Fn8000_0008, Fn8000_001D,
// Fn8000_0020) for an EPYC 9654's documented geometry (CCX of 8 Zen 4 cores sharing a 16-way 32 MiB L3, 1 MiB
// 8-way L2, 16 COS, MBA limits of 11 bits = 2048 eighths of a GB/s) plus the assignable counters (ABMC) of
// later EPYCs with a deliberately small pool of 8 counters per L3, so that running out of counters is easy to
// see. SimCpuid::notes says so.
#include "SimCpuid.h"

#include <cerrno>
#include <string>

namespace rdt::sim {
namespace {

struct RawLeaf {
    std::uint32_t leaf, subleaf, eax, ebx, ecx, edx;
};

struct Preset {
    const char* id;
    const char* name;
    const char* source;
    unsigned mbaClos; ///< CLOS count to synthesize for 10H.3 when MBA is enumerated
    std::vector<RawLeaf> leaves;
    unsigned coresPerL3 = 0; ///< SimTopology::coresPerL3 (0 = one L3 per socket)
    unsigned coresPerSocket = 0; ///< the machine's size when this preset replaces a scenario's (0 = the scenario's)
    const char* note = nullptr; ///< said in SimCpuid::notes
    const char* base = nullptr; ///< another preset whose registers this one uses (leaves empty)
    unsigned sncNodes = 0; ///< SimTopology::sncNodes (0 = no SNC)
    bool pkgTelemetry = false; ///< SimOptions::pkgTelemetry
    int dialect = 0; ///< SimOptions::dialect (ResctrlDialect)
};

const std::vector<Preset>& table()
{
    static const std::vector<Preset> t = {
        { "skx-6154", "Xeon Gold 6154 (Skylake-SP)", "InstLatx64 GenuineIntel0050654_SkylakeXeon_CPUID5.txt", 8,
            {
                { 0x0, 0, 0x00000016, 0x756E6547, 0x6C65746E, 0x49656E69 },
                { 0x1, 0, 0x00050654, 0x00400800, 0x7FFEFBFF, 0xBFEBFBFF },
                { 0x4, 0, 0x7C004121, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 1, 0x7C004122, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 2, 0x7C004143, 0x03C0003F, 0x000003FF, 0x00000000 },
                { 0x4, 3, 0x7C0FC163, 0x0280003F, 0x00008FFF, 0x00000004 },
                { 0x7, 0, 0x00000000, 0xD39FFFFB, 0x00000008, 0x00000000 },
                { 0xB, 0, 0x00000001, 0x00000002, 0x00000100, 0x00000000 },
                { 0xB, 1, 0x00000006, 0x00000024, 0x00000201, 0x00000000 },
                { 0xF, 0, 0x00000000, 0x0000008F, 0x00000000, 0x00000002 },
                { 0xF, 1, 0x00000000, 0x00012000, 0x0000008F, 0x00000007 },
                { 0x10, 0, 0x00000000, 0x0000000A, 0x00000000, 0x00000000 },
                { 0x10, 1, 0x0000000A, 0x00000600, 0x00000004, 0x0000000F },
                { 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000002, 0, 0x65746E49, 0x2952286C, 0x6F655820, 0x2952286E },
                { 0x80000003, 0, 0x6C6F4720, 0x31362064, 0x43203435, 0x40205550 },
                { 0x80000004, 0, 0x302E3320, 0x7A484730, 0x00000000, 0x00000000 },
            } },
        { "clx-5215", "Xeon Gold 5215 (Cascade Lake-SP)", "InstLatx64 GenuineIntel0050657_CascadeLakeSP_CPUID1.txt", 8,
            {
                { 0x0, 0, 0x00000016, 0x756E6547, 0x6C65746E, 0x49656E69 },
                { 0x1, 0, 0x00050657, 0x00200800, 0x7FFEFBFF, 0xBFEBFBFF },
                { 0x4, 0, 0x3C004121, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 1, 0x3C004122, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 2, 0x3C004143, 0x03C0003F, 0x000003FF, 0x00000000 },
                { 0x4, 3, 0x3C07C163, 0x0280003F, 0x00004FFF, 0x00000005 },
                { 0x7, 0, 0x00000000, 0xD39FFFFB, 0x00000808, 0xBC000400 },
                { 0xB, 0, 0x00000001, 0x00000002, 0x00000100, 0x00000000 },
                { 0xB, 1, 0x00000005, 0x00000014, 0x00000201, 0x00000000 },
                { 0xF, 0, 0x00000000, 0x0000004F, 0x00000000, 0x00000002 },
                { 0xF, 1, 0x00000000, 0x0000A000, 0x0000004F, 0x00000007 },
                { 0x10, 0, 0x00000000, 0x0000000A, 0x00000000, 0x00000000 },
                { 0x10, 1, 0x0000000A, 0x00000600, 0x00000004, 0x0000000F },
                { 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000002, 0, 0x65746E49, 0x2952286C, 0x6F655820, 0x2952286E },
                { 0x80000003, 0, 0x6C6F4720, 0x32352064, 0x43203531, 0x40205550 },
                { 0x80000004, 0, 0x352E3220, 0x7A484730, 0x00000000, 0x00000000 },
            } },
        { "icx-8351n", "Xeon Platinum 8351N (Ice Lake-SP)", "InstLatx64 GenuineIntel00606A6_ICX_CPUID3.txt", 15,
            {
                { 0x0, 0, 0x0000001B, 0x756E6547, 0x6C65746E, 0x49656E69 },
                { 0x1, 0, 0x000606A6, 0x00800800, 0x7FFEFBFF, 0xBFEBFBFF },
                { 0x4, 0, 0xFC004121, 0x02C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 1, 0xFC004122, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 2, 0xFC004143, 0x04C0003F, 0x000003FF, 0x00000000 },
                { 0x4, 3, 0xFC1FC163, 0x02C0003F, 0x00011FFF, 0x00000004 },
                { 0x7, 0, 0x00000000, 0xF3BFBFFF, 0x40417F4E, 0xBC040412 },
                { 0xB, 0, 0x00000001, 0x00000002, 0x00000100, 0x00000000 },
                { 0xB, 1, 0x00000007, 0x00000048, 0x00000201, 0x00000000 },
                { 0xF, 0, 0x00000000, 0x0000011F, 0x00000000, 0x00000002 },
                { 0xF, 1, 0x00000008, 0x00012000, 0x0000011F, 0x00000007 },
                { 0x10, 0, 0x00000000, 0x0000000A, 0x00000000, 0x00000000 },
                { 0x10, 1, 0x0000000B, 0x00000C00, 0x00000000, 0x0000000E },
                { 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000002, 0, 0x65746E49, 0x2952286C, 0x6F655820, 0x2952286E },
                { 0x80000003, 0, 0x616C5020, 0x756E6974, 0x3338206D, 0x204E3135 },
                { 0x80000004, 0, 0x20555043, 0x2E322040, 0x48473034, 0x0000007A },
            } },
        { "bdw-6850k", "Core i7-6850K (Broadwell-E)", "InstLatx64 GenuineIntel00406F1_BroadwellE_CPUID.txt", 8,
            {
                { 0x0, 0, 0x00000014, 0x756E6547, 0x6C65746E, 0x49656E69 },
                { 0x1, 0, 0x000406F1, 0x00100800, 0x7FFEFBBF, 0xBFEBFBFF },
                { 0x4, 0, 0x1C004121, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 1, 0x1C004122, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 2, 0x1C004143, 0x01C0003F, 0x000001FF, 0x00000000 },
                { 0x4, 3, 0x1C03C163, 0x04C0003F, 0x00002FFF, 0x00000006 },
                { 0x7, 0, 0x00000000, 0x021CBFBB, 0x00000000, 0x00000000 },
                { 0xB, 0, 0x00000001, 0x00000002, 0x00000100, 0x00000000 },
                { 0xB, 1, 0x00000004, 0x0000000C, 0x00000201, 0x00000000 },
                { 0xF, 0, 0x00000000, 0x0000002F, 0x00000000, 0x00000002 },
                { 0xF, 1, 0x00000000, 0x00006000, 0x0000002F, 0x00000007 },
                { 0x10, 0, 0x00000000, 0x00000002, 0x00000000, 0x00000000 },
                { 0x10, 1, 0x00000013, 0x000C0000, 0x00000004, 0x0000000F },
                { 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000002, 0, 0x65746E49, 0x2952286C, 0x726F4320, 0x4D542865 },
                { 0x80000003, 0, 0x37692029, 0x3538362D, 0x43204B30, 0x40205550 },
                { 0x80000004, 0, 0x362E3320, 0x7A484730, 0x00000000, 0x00000000 },
            } },
        { "hsw-2699v3", "Xeon E5-2699 v3 (Haswell-EP, CMT only)", "InstLatx64 GenuineIntel00306F2_HaswellEP_CPUID.txt",
            8,
            {
                { 0x0, 0, 0x0000000F, 0x756E6547, 0x6C65746E, 0x49656E69 },
                { 0x1, 0, 0x000306F2, 0x00400800, 0x7DFEFBFF, 0xBFEBFBFF },
                { 0x4, 0, 0x7C004121, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 1, 0x7C004122, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 2, 0x7C004143, 0x01C0003F, 0x000001FF, 0x00000000 },
                { 0x4, 3, 0x7C0FC163, 0x04C0003F, 0x00008FFF, 0x00000006 },
                { 0x7, 0, 0x00000000, 0x00003FBB, 0x00000000, 0x00000000 },
                { 0xB, 0, 0x00000001, 0x00000002, 0x00000100, 0x00000000 },
                { 0xB, 1, 0x00000006, 0x00000024, 0x00000201, 0x00000000 },
                { 0xF, 0, 0x00000000, 0x00000047, 0x00000000, 0x00000002 },
                { 0xF, 1, 0x00000000, 0x00012000, 0x00000047, 0x00000001 },
                { 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000002, 0, 0x65746E49, 0x2952286C, 0x6F655820, 0x2952286E },
                { 0x80000003, 0, 0x55504320, 0x2D354520, 0x39393632, 0x20337620 },
                { 0x80000004, 0, 0x2E322040, 0x48473033, 0x0000007A, 0x00000000 },
            } },
        { "icx-d1718t", "Xeon D-1718T (Ice Lake-D, no RDT)", "InstLatx64 GenuineIntel00606C1_ICX_01v_CPUID.txt", 8,
            {
                { 0x0, 0, 0x0000001B, 0x756E6547, 0x6C65746E, 0x49656E69 },
                { 0x1, 0, 0x000606C1, 0x00200800, 0xFFFAF387, 0xBFEBFBFF },
                { 0x4, 0, 0x3C004121, 0x02C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 1, 0x3C004122, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x4, 2, 0x3C004143, 0x04C0003F, 0x000003FF, 0x00000000 },
                { 0x4, 3, 0x3C07C163, 0x04C0003F, 0x00001FFF, 0x00000000 },
                { 0x7, 0, 0x00000000, 0xF3BFBFB9, 0x00415F46, 0xBC000410 },
                { 0xB, 0, 0x00000001, 0x00000002, 0x00000100, 0x00000000 },
                { 0xB, 1, 0x00000005, 0x00000008, 0x00000201, 0x00000000 },
                { 0xF, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
                { 0xF, 1, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
                { 0x10, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
                { 0x10, 1, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000002, 0, 0x65746E49, 0x2952286C, 0x6F655820, 0x2952286E },
                { 0x80000003, 0, 0x312D4420, 0x54383137, 0x55504320, 0x32204020 },
                { 0x80000004, 0, 0x4730362E, 0x00007A48, 0x00000000, 0x00000000 },
            } },
        { "epyc-genoa", "EPYC 9654 (Genoa-like, 4 CCX per socket, ABMC)",
            "written from the AMD64 APM vol. 3 CPUID pages (no dump)", 0,
            {
                { 0x0, 0, 0x00000010, 0x68747541, 0x444D4163, 0x69746E65 },
                { 0x1, 0, 0x00A10F11, 0x00100800, 0x7EF8320B, 0x178BFBFF },
                // 07H.0:EBX[12] PQM (monitoring), [15] PQE (allocation), as AMD enumerates them.
                { 0x7, 0, 0x00000000, 0xF1BF97A9, 0x00405FCE, 0x10000010 },
                { 0xF, 0, 0x00000000, 0x000000FF, 0x00000000, 0x00000002 },
                { 0xF, 1, 0x00000000, 0x00000040, 0x000000FF, 0x00000007 },
                { 0x10, 0, 0x00000000, 0x00000002, 0x00000000, 0x00000000 },
                { 0x10, 1, 0x0000000F, 0x00000000, 0x00000004, 0x0000000F },
                { 0x80000000, 0, 0x80000028, 0x68747541, 0x444D4163, 0x69746E65 },
                { 0x80000001, 0, 0x00A10F11, 0x40000000, 0x75C237FF, 0x2FD3FBFF },
                { 0x80000002, 0, 0x20444D41, 0x43595045, 0x35363920, 0x36392034 },
                { 0x80000003, 0, 0x726F432D, 0x72502065, 0x7365636F, 0x00726F73 },
                { 0x80000004, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000008, 0, 0x00003030, 0x791EF257, 0x0000707F, 0x00010000 },
                { 0x8000001D, 0, 0x00004121, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x8000001D, 1, 0x00004122, 0x01C0003F, 0x0000003F, 0x00000000 },
                { 0x8000001D, 2, 0x00004143, 0x01C0003F, 0x000007FF, 0x00000002 },
                { 0x8000001D, 3, 0x0003C163, 0x03C0003F, 0x00007FFF, 0x00000001 },
                { 0x8000001D, 4, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
                // 80000020H.0:EBX[1] L3MBE, [3] BMEC, [5] ABMC; .1 MBA: 11-bit limits, 16 COS; .3 BMEC: 2 events,
                // valid bits 7FH; .5 ABMC: EBX[15:0] = counters - 1.
                { 0x80000020, 0, 0x00000000, 0x0000002A, 0x00000000, 0x00000000 },
                { 0x80000020, 1, 0x0000000B, 0x00000000, 0x00000000, 0x0000000F },
                { 0x80000020, 3, 0x00000000, 0x00000002, 0x0000007F, 0x00000000 },
                { 0x80000020, 5, 0x00000000, 0x00000007, 0x00000000, 0x00000000 },
            },
            8, 32,
            "CPUID written from the AMD64 APM for a Genoa-like EPYC (no dump); ABMC and its 8-counter pool are "
            "synthetic (Genoa itself has no ABMC)" },
        // Sub-NUMA Clustering is a BIOS setting, not a CPUID value: the same Ice Lake-SP, booted in SNC-2.
        { "icx-8351n-snc2", "Xeon Platinum 8351N (Ice Lake-SP) in SNC-2 mode",
            "InstLatx64 GenuineIntel00606A6_ICX_CPUID3.txt", 15, {}, 0, 0,
            "SNC-2 (two sub-NUMA nodes per L3) is the simulated BIOS setting, not from the dump; its PERF_PKG_MON "
            "telemetry (core_energy, activity, cycle and uop counts per group and package) is synthetic: Ice Lake "
            "has none, the counts come from a stated energy model over the simulated threads",
            "icx-8351n", 2, true },
        // Arm and RISC-V parts have no CPUID: the simulator describes every machine's caches and controls with a
        // CPUID-shaped table, so these two carry a synthetic one (vendor strings "ArmMPAMsynth", "RiscvCBQRIsy")
        // with the geometry named in their notes; their resctrl is the dialect's (SimConfig.h ResctrlDialect).
        { "arm-mpam", "Neoverse-like Arm MPAM part (synthetic)",
            "synthetic: resctrl as Documentation/arch/arm64/mpam.rst describes it; no hardware's values", 0,
            {
                { 0x0, 0, 0x00000010, 0x4D6D7241, 0x68746E79, 0x734D4150 },
                { 0x1, 0, 0x00000000, 0x00100800, 0x00000000, 0x00000000 },
                { 0x4, 0, 0x3C000121, 0x00C0003F, 0x000000FF, 0x00000000 },
                { 0x4, 1, 0x3C000122, 0x00C0003F, 0x000000FF, 0x00000000 },
                { 0x4, 2, 0x3C000143, 0x01C0003F, 0x000007FF, 0x00000000 },
                { 0x4, 3, 0x3C03C163, 0x03C0003F, 0x00007FFF, 0x00000000 },
                { 0x7, 0, 0x00000000, 0x00009000, 0x00000000, 0x00000000 },
                // CSU and MBWU only: llc_occupancy and mbm_total_bytes (EDX bits 0 and 1), never mbm_local_bytes.
                { 0xF, 0, 0x00000000, 0x0000007F, 0x00000000, 0x00000002 },
                { 0xF, 1, 0x00000014, 0x00000040, 0x0000007F, 0x00000003 },
                // CPOR on L3 (16 portions) and L2 (8), MBW_MAX as MB in 2 % steps, 32 PARTIDs.
                { 0x10, 0, 0x00000000, 0x0000000E, 0x00000000, 0x00000000 },
                { 0x10, 1, 0x0000000F, 0x00000000, 0x00000004, 0x0000001F },
                { 0x10, 2, 0x00000007, 0x00000000, 0x00000004, 0x0000001F },
                { 0x10, 3, 0x00000061, 0x00000000, 0x00000004, 0x0000001F },
                { 0x80000000, 0, 0x80000004, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000002, 0, 0x766F654E, 0x65737265, 0x6B696C2D, 0x72412065 },
                { 0x80000003, 0, 0x504D206D, 0x70204D41, 0x20747261, 0x6E797328 },
                { 0x80000004, 0, 0x74656874, 0x00296369, 0x00000000, 0x00000000 },
            },
            0, 16,
            "synthetic Arm MPAM part (Neoverse-like: 16 cores, 1 MiB 8-way L2 with 8 CPOR portions, 32 MiB 16-way L3 "
            "with 16, MBW_MAX in 2 % steps, 32 PARTIDs, 128 PMGs, 44-bit MBWU counters); no hardware documents these "
            "values, and the "
            "CPUID-shaped table is the simulator's own description (Arm has no CPUID)",
            nullptr, 0, false, 1 },
        { "riscv-cbqri", "RISC-V CBQRI part (synthetic)",
            "synthetic: resctrl as the CBQRI branch's Documentation/filesystems/resctrl.rst describes it", 0,
            {
                { 0x0, 0, 0x00000010, 0x63736952, 0x79734952, 0x51424376 },
                { 0x1, 0, 0x00000000, 0x00100800, 0x00000000, 0x00000000 },
                { 0x4, 0, 0x3C000121, 0x00C0003F, 0x000000FF, 0x00000000 },
                { 0x4, 1, 0x3C000122, 0x00C0003F, 0x000000FF, 0x00000000 },
                { 0x4, 2, 0x3C000143, 0x02C0003F, 0x000007FF, 0x00000000 },
                { 0x4, 3, 0x3C03C163, 0x03C0003F, 0x00003FFF, 0x00000000 },
                { 0x7, 0, 0x00000000, 0x00009000, 0x00000000, 0x00000000 },
                { 0xF, 0, 0x00000000, 0x000000FF, 0x00000000, 0x00000002 },
                { 0xF, 1, 0x00000014, 0x00000040, 0x000000FF, 0x00000003 },
                // Capacity blocks: 16 on L3, 12 on L2, 64 RCIDs; the bandwidth controller is the dialect's.
                { 0x10, 0, 0x00000000, 0x00000006, 0x00000000, 0x00000000 },
                { 0x10, 1, 0x0000000F, 0x00000000, 0x00000000, 0x0000003F },
                { 0x10, 2, 0x0000000B, 0x00000000, 0x00000000, 0x0000003F },
                { 0x80000000, 0, 0x80000004, 0x00000000, 0x00000000, 0x00000000 },
                { 0x80000002, 0, 0x43534952, 0x4320562D, 0x49525142, 0x72617020 },
                { 0x80000003, 0, 0x73282074, 0x68746E79, 0x63697465, 0x00000029 },
                { 0x80000004, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
            },
            0, 16,
            "synthetic RISC-V CBQRI part (16 harts, 1.5 MiB 12-way L2 and 16 MiB 16-way L3 as capacity blocks, 64 "
            "RCIDs, 256 MCIDs, a bandwidth controller with 819 reservable blocks as in the CBQRI resctrl prototype's "
            "QEMU "
            "device); the CPUID-shaped table is the simulator's own description (RISC-V has no CPUID)",
            nullptr, 0, false, 2 },
        { "xeon-mbregion", "Xeon Platinum 8351N (Ice Lake-SP) with region-aware MBA (synthetic)",
            "InstLatx64 GenuineIntel00606A6_ICX_CPUID3.txt", 15, {}, 0, 0,
            "region-aware bandwidth (MB_REGION0/1 _MIN/_OPT/_MAX, values 1..511 as pqos 26.03 takes them) and the "
            "resource_schemata descriptions are synthetic: Ice Lake has no region-aware MBA; the CPUID is the dump's",
            "icx-8351n", 0, false, 3 },
    };
    return t;
}

} // namespace

const std::vector<PresetInfo>& presets()
{
    static const std::vector<PresetInfo> list = [] {
        std::vector<PresetInfo> out;
        for (const auto& p : table())
            out.push_back(
                { p.id, p.name, p.source, p.coresPerL3, p.coresPerSocket, p.sncNodes, p.pkgTelemetry, p.dialect });
        return out;
    }();
    return list;
}

const PresetInfo* presetInfo(const std::string& id)
{
    for (const auto& p : presets())
        if (p.id == id) return &p;
    return nullptr;
}

Result<SimCpuid> presetCpuid(const std::string& id)
{
    for (const auto& p : table()) {
        if (id != p.id) continue;
        SimCpuid c;
        const Preset* regs = &p;
        for (const auto& b : table())
            if (p.base && std::string(p.base) == b.id) regs = &b;
        for (const auto& l : regs->leaves)
            c.set(l.leaf, l.subleaf, { l.eax, l.ebx, l.ecx, l.edx });
        c.name = p.name;
        c.source = p.source;
        if (p.note) c.notes.emplace_back(p.note);
        synthesizeMissingLeaves(c, p.mbaClos);
        return c;
    }
    std::string known;
    for (const auto& p : table())
        known += (known.empty() ? "" : ", ") + std::string(p.id);
    return errnoError(ENOENT, "unknown simulator preset '" + id + "'", "use one of: " + known);
}

} // namespace rdt::sim

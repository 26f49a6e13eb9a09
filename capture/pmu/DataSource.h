// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rdt::pmu {

/// Where a sampled load was served from, coarse enough for a histogram (one colour per value).
enum class MemLevel : std::uint8_t {
    Unknown,
    L1,
    Lfb, ///< line fill buffer / miss address buffer: the line was already on its way
    L2,
    L3,
    LocalDram,
    RemoteDram,
    RemoteCache, ///< another socket's / node's cache (lvl REM_CCE*, or a cache level with mem_remote set)
    Pmem,
    Io,
    Uncached,
    Cxl,
    Count
};

/// "L1", "LFB", "L2", "L3", "local DRAM", "remote DRAM", "remote cache", "PMEM", "IO", "uncached", "CXL", "unknown".
std::string_view memLevelName(MemLevel level);

/// mem_region (5 bits at shift 46 of perf_mem_data_src, Linux 7.0 uapi PERF_MEM_REGION_*; Diamond Rapids):
/// "N/A", "reserved", "local shared cache", "local non-shared cache", "other agent's IO", "other agent's shared
/// cache", "other agent's non-shared cache", "MMIO", "memory region 0" .. "memory region 7", "region N" beyond.
std::string memRegionName(std::uint8_t region);

/// union perf_mem_data_src (include/uapi/linux/perf_event.h), decoded. Every field keeps the kernel's bit values
/// (PERF_MEM_* constants below), so callers can test bits exactly as perf does.
struct DataSource {
    std::uint64_t raw = 0;
    std::uint8_t op = 0; ///< mem_op, 5 bits: NA 1, LOAD 2, STORE 4, PFETCH 8, EXEC 0x10
    std::uint16_t lvl = 0; ///< mem_lvl, 14 bits (the older, "deprecated to some extent" namespace)
    std::uint8_t snoop = 0; ///< mem_snoop, 5 bits: NA 1, NONE 2, HIT 4, MISS 8, HITM 0x10
    std::uint8_t lock = 0; ///< mem_lock, 2 bits: NA 1, LOCKED 2
    std::uint8_t dtlb = 0; ///< mem_dtlb, 7 bits: NA 1, HIT 2, MISS 4, L1 8, L2 0x10, WK 0x20, OS 0x40
    std::uint8_t lvlNum = 0; ///< mem_lvl_num, 4 bits: L1 1 .. L4 4, L2_MHB 5, MSC 6, UNC 8, CXL 9, IO 0xa,
                             ///< ANY_CACHE 0xb, LFB 0xc, RAM 0xd, PMEM 0xe, NA 0xf (0: not filled by the kernel)
    bool remote = false; ///< mem_remote
    std::uint8_t snoopX = 0; ///< mem_snoopx, 2 bits: FWD 1, PEER 2
    std::uint8_t blk = 0; ///< mem_blk, 3 bits: NA 1, DATA 2, ADDR 4
    std::uint8_t hops = 0; ///< mem_hops, 3 bits: 1 core, 2 node, 3 socket, 4 board
    std::uint8_t region = 0; ///< mem_region, 5 bits (Linux 7.0): 0 N/A, see memRegionName

    static DataSource decode(std::uint64_t raw);

    MemLevel level() const; ///< from lvl_num when the kernel filled it, else from the mem_lvl bits
    std::string_view levelName() const { return memLevelName(level()); }
    bool isLoad() const { return (op & OpLoad) != 0; }
    bool isStore() const { return (op & OpStore) != 0; }
    bool hit() const { return (lvl & LvlHit) != 0; }
    bool miss() const { return (lvl & LvlMiss) != 0; }
    bool hitm() const { return (snoop & SnoopHitm) != 0; }
    bool locked() const { return (lock & LockLocked) != 0; }
    bool tlbMiss() const { return (dtlb & TlbMiss) != 0; }
    /// perf script's rendering, e.g. "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A" (shorter).
    std::string describe() const;

    // PERF_MEM_* values [uapi].
    static constexpr std::uint8_t OpNa = 0x01, OpLoad = 0x02, OpStore = 0x04, OpPfetch = 0x08, OpExec = 0x10;
    static constexpr std::uint16_t LvlNa = 0x01, LvlHit = 0x02, LvlMiss = 0x04, LvlL1 = 0x08, LvlLfb = 0x10,
                                   LvlL2 = 0x20, LvlL3 = 0x40, LvlLocRam = 0x80, LvlRemRam1 = 0x100, LvlRemRam2 = 0x200,
                                   LvlRemCce1 = 0x400, LvlRemCce2 = 0x800, LvlIo = 0x1000, LvlUnc = 0x2000;
    static constexpr std::uint8_t SnoopNa = 0x01, SnoopNone = 0x02, SnoopHit = 0x04, SnoopMiss = 0x08, SnoopHitm = 0x10;
    static constexpr std::uint8_t SnoopXFwd = 0x01, SnoopXPeer = 0x02;
    static constexpr std::uint8_t LockNa = 0x01, LockLocked = 0x02;
    static constexpr std::uint8_t TlbNa = 0x01, TlbHit = 0x02, TlbMiss = 0x04, TlbL1 = 0x08, TlbL2 = 0x10, TlbWk = 0x20,
                                  TlbOs = 0x40;
    static constexpr std::uint8_t LvlNumL1 = 0x01, LvlNumL2 = 0x02, LvlNumL3 = 0x03, LvlNumL4 = 0x04,
                                  LvlNumL2Mhb = 0x05, LvlNumMsc = 0x06, LvlNumUnc = 0x08, LvlNumCxl = 0x09,
                                  LvlNumIo = 0x0a, LvlNumAnyCache = 0x0b, LvlNumLfb = 0x0c, LvlNumRam = 0x0d,
                                  LvlNumPmem = 0x0e, LvlNumNa = 0x0f;
    static constexpr std::uint8_t BlkNa = 0x01, BlkData = 0x02, BlkAddr = 0x04;
    static constexpr std::uint8_t RegionNa = 0x00, RegionLocalShare = 0x02, RegionLocalNonShare = 0x03,
                                  RegionOtherIo = 0x04, RegionOtherShare = 0x05, RegionOtherNonShare = 0x06,
                                  RegionMmio = 0x07, RegionMem0 = 0x08, RegionMem7 = 0x0f;
    static constexpr unsigned kRegions = 32; ///< values a 5-bit mem_region can hold

    /// Builds the raw u64 from fields (the simulated PMU uses this to write samples).
    static std::uint64_t encode(std::uint8_t op, std::uint16_t lvl, std::uint8_t snoop, std::uint8_t lock,
        std::uint8_t dtlb, std::uint8_t lvlNum, bool remote = false, std::uint8_t snoopX = 0, std::uint8_t blk = 0,
        std::uint8_t hops = 0, std::uint8_t region = 0);
};

} // namespace rdt::pmu

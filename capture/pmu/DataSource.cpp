// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataSource.h"

#include <array>

namespace rdt::pmu {

std::string_view memLevelName(MemLevel level)
{
    static constexpr std::array<std::string_view, static_cast<std::size_t>(MemLevel::Count)> names = { "unknown", "L1",
        "LFB", "L2", "L3", "local DRAM", "remote DRAM", "remote cache", "PMEM", "IO", "uncached", "CXL" };
    const auto i = static_cast<std::size_t>(level);
    return i < names.size() ? names[i] : std::string_view("unknown");
}

std::string memRegionName(std::uint8_t region)
{
    static constexpr std::array<std::string_view, 8> names
        = { "N/A", "reserved", "local shared cache", "local non-shared cache", "other agent's IO",
              "other agent's shared cache", "other agent's non-shared cache", "MMIO" };
    if (region < names.size()) return std::string(names[region]);
    if (region <= DataSource::RegionMem7) return "memory region " + std::to_string(region - DataSource::RegionMem0);
    return "region " + std::to_string(region);
}

DataSource DataSource::decode(std::uint64_t raw)
{
    // Bit layout of union perf_mem_data_src (little endian) [uapi]: op 0..4, lvl 5..18, snoop 19..23, lock 24..25,
    // dtlb 26..32, lvl_num 33..36, remote 37, snoopx 38..39, blk 40..42, hops 43..45, region 46..50 (Linux 7.0).
    DataSource d;
    d.raw = raw;
    d.op = static_cast<std::uint8_t>(raw & 0x1f);
    d.lvl = static_cast<std::uint16_t>((raw >> 5) & 0x3fff);
    d.snoop = static_cast<std::uint8_t>((raw >> 19) & 0x1f);
    d.lock = static_cast<std::uint8_t>((raw >> 24) & 0x3);
    d.dtlb = static_cast<std::uint8_t>((raw >> 26) & 0x7f);
    d.lvlNum = static_cast<std::uint8_t>((raw >> 33) & 0xf);
    d.remote = ((raw >> 37) & 1u) != 0;
    d.snoopX = static_cast<std::uint8_t>((raw >> 38) & 0x3);
    d.blk = static_cast<std::uint8_t>((raw >> 40) & 0x7);
    d.hops = static_cast<std::uint8_t>((raw >> 43) & 0x7);
    d.region = static_cast<std::uint8_t>((raw >> 46) & 0x1f);
    return d;
}

std::uint64_t DataSource::encode(std::uint8_t op, std::uint16_t lvl, std::uint8_t snoop, std::uint8_t lock,
    std::uint8_t dtlb, std::uint8_t lvlNum, bool remote, std::uint8_t snoopX, std::uint8_t blk, std::uint8_t hops,
    std::uint8_t region)
{
    return (std::uint64_t { op } & 0x1f) | ((std::uint64_t { lvl } & 0x3fff) << 5)
        | ((std::uint64_t { snoop } & 0x1f) << 19) | ((std::uint64_t { lock } & 0x3) << 24)
        | ((std::uint64_t { dtlb } & 0x7f) << 26) | ((std::uint64_t { lvlNum } & 0xf) << 33)
        | (std::uint64_t { remote ? 1u : 0u } << 37) | ((std::uint64_t { snoopX } & 0x3) << 38)
        | ((std::uint64_t { blk } & 0x7) << 40) | ((std::uint64_t { hops } & 0x7) << 43)
        | ((std::uint64_t { region } & 0x1f) << 46);
}

MemLevel DataSource::level() const
{
    // Newer kernels fill lvl_num (with mem_remote and mem_hops); it is the precise one. 0 means "not filled" and
    // NA means unknown: then fall back to the older mem_lvl bits, as perf's mem_lvl__sprintf does.
    switch (lvlNum) {
    case LvlNumL1:
        return remote ? MemLevel::RemoteCache : MemLevel::L1;
    case LvlNumL2:
    case LvlNumL2Mhb:
        return remote ? MemLevel::RemoteCache : MemLevel::L2;
    case LvlNumL3:
    case LvlNumL4:
    case LvlNumMsc:
        return remote ? MemLevel::RemoteCache : MemLevel::L3;
    case LvlNumAnyCache:
        return remote ? MemLevel::RemoteCache : MemLevel::L3;
    case LvlNumLfb:
        return MemLevel::Lfb;
    case LvlNumRam:
        return remote ? MemLevel::RemoteDram : MemLevel::LocalDram;
    case LvlNumPmem:
        return MemLevel::Pmem;
    case LvlNumIo:
        return MemLevel::Io;
    case LvlNumUnc:
        return MemLevel::Uncached;
    case LvlNumCxl:
        return MemLevel::Cxl;
    default:
        break;
    }
    if (lvl & LvlL1) return MemLevel::L1;
    if (lvl & LvlLfb) return MemLevel::Lfb;
    if (lvl & LvlL2) return MemLevel::L2;
    if (lvl & LvlL3) return MemLevel::L3;
    if (lvl & LvlLocRam) return MemLevel::LocalDram;
    if (lvl & (LvlRemRam1 | LvlRemRam2)) return MemLevel::RemoteDram;
    if (lvl & (LvlRemCce1 | LvlRemCce2)) return MemLevel::RemoteCache;
    if (lvl & LvlIo) return MemLevel::Io;
    if (lvl & LvlUnc) return MemLevel::Uncached;
    return MemLevel::Unknown;
}

std::string DataSource::describe() const
{
    std::string s = "|OP ";
    s += isLoad() ? "LOAD" : isStore() ? "STORE" : (op & OpPfetch) ? "PFETCH" : (op & OpExec) ? "EXEC" : "N/A";
    s += "|LVL ";
    s += levelName();
    s += hit() ? " hit" : miss() ? " miss" : "";
    s += "|SNP ";
    s += hitm()               ? "HitM"
        : (snoop & SnoopHit)  ? "Hit"
        : (snoop & SnoopMiss) ? "Miss"
        : (snoop & SnoopNone) ? "None"
                              : "N/A";
    if (snoopX & SnoopXFwd) s += " Fwd";
    if (snoopX & SnoopXPeer) s += " Peer";
    s += "|TLB ";
    if (dtlb & (TlbL1 | TlbL2)) {
        s += (dtlb & TlbL1) && (dtlb & TlbL2) ? "L1 or L2" : (dtlb & TlbL1) ? "L1" : "L2";
        s += (dtlb & TlbHit) ? " hit" : (dtlb & TlbMiss) ? " miss" : "";
    } else if (dtlb & TlbWk) {
        s += "Walker";
    } else {
        s += (dtlb & TlbMiss) ? "miss" : (dtlb & TlbHit) ? "hit" : "N/A";
    }
    s += "|LCK ";
    s += locked() ? "Yes" : (lock & LockNa) ? "N/A" : "No";
    if (remote) s += "|REMOTE";
    if (region != RegionNa) s += "|REGION " + memRegionName(region);
    return s;
}

} // namespace rdt::pmu

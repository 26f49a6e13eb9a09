// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The memory model behind the simulated PMU: where a load found its line and how long it took.
// SimMemoryModel is the interface; SmallCacheHierarchy is our own small model (per-core L1/L2, shared L3 with a
// dirty-owner bit for HITM, local/remote DRAM by address), the default. SimMachineMemory puts the simulated
// machine's own caches (capture/sim, with CAT masks) behind the same interface (`pmu --machine PRESET`).

#include "pmu/DataSource.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace rdt::pmu {

struct SimAccess {
    MemLevel level = MemLevel::L1;
    std::uint32_t latency = 0; ///< core cycles
    bool hitm = false; ///< the line was modified in another core's cache
    bool remote = false;
};

class SimMemoryModel {
public:
    virtual ~SimMemoryModel() = default;
    virtual SimAccess access(std::uint64_t addr, bool write, unsigned core) = 0;
};

struct CacheGeometry {
    std::uint32_t sizeBytes;
    std::uint32_t ways;
    std::uint32_t latency;
};

/// A set-associative LRU array of 64-byte lines.
class CacheArray {
public:
    explicit CacheArray(CacheGeometry g);
    /// True on hit (and the line becomes most recent); on miss the line is filled, evicting the LRU way.
    bool touch(std::uint64_t line);
    bool contains(std::uint64_t line) const;
    void invalidate(std::uint64_t line);
    std::uint32_t latency() const { return m_geo.latency; }

private:
    CacheGeometry m_geo;
    std::uint32_t m_sets;
    std::vector<std::uint64_t> m_tags; ///< line + 1 (0 = empty), sets x ways
    std::vector<std::uint32_t> m_age;
    std::uint32_t m_clock = 0;
};

class SmallCacheHierarchy final : public SimMemoryModel {
public:
    /// Addresses at or above remoteBase live on the other socket's memory.
    SmallCacheHierarchy(unsigned cores = 2, CacheGeometry l1 = { 32 * 1024, 8, 5 },
        CacheGeometry l2 = { 1024 * 1024, 16, 14 }, CacheGeometry l3 = { 8 * 1024 * 1024, 16, 48 },
        std::uint32_t dramLatency = 220, std::uint32_t remoteLatency = 360,
        std::uint64_t remoteBase = 0x100000000000ull);
    SimAccess access(std::uint64_t addr, bool write, unsigned core) override;

private:
    std::vector<CacheArray> m_l1, m_l2;
    CacheArray m_l3;
    std::unordered_map<std::uint64_t, unsigned> m_dirtyOwner; ///< line -> core holding it modified
    std::uint32_t m_dram, m_remote;
    std::uint64_t m_remoteBase;
};

} // namespace rdt::pmu

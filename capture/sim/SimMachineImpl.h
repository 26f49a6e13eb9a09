// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to capture/sim: the state behind SimMachine, shared by SimMachine.cpp (time, threads, the access path)
// and the views over it (SimRdtRegisters, SimRmidMonitor, SimCacheContents). Not part of the public API.
#pragma once

#include "SimMachine.h"
#include "TimeScale.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace rdt::sim {

namespace detail {

inline std::uint32_t waysOfCbm(std::uint32_t cbm, std::uint32_t cbmLen, std::uint32_t ways)
{
    if (cbmLen == 0) return ways >= 32 ? 0xFFFFFFFFu : (1u << ways) - 1;
    std::uint32_t out = 0;
    for (std::uint32_t bit = 0; bit < cbmLen; ++bit) {
        if (!(cbm & (1u << bit))) continue;
        std::uint32_t first = bit * ways / cbmLen;
        std::uint32_t last = std::max(first + 1, (bit + 1) * ways / cbmLen);
        for (std::uint32_t w = first; w < last && w < 32; ++w)
            out |= 1u << w;
    }
    return out;
}

constexpr int kSubSlices = 8; // threads interleave in 8 slices per tick so they contend in the caches

} // namespace detail

using detail::kSubSlices;
using detail::waysOfCbm;

struct SimMachine::Impl {
    struct Core {
        CacheSlice l1d, l1i, l2;
        std::vector<std::uint32_t> l2Masks;
        bool l2Cdp = false;
        std::vector<std::uint32_t> l2DataWays, l2CodeWays; // per CLOS
    };
    struct Domain {
        CacheSlice l3;
        std::vector<std::uint32_t> l3Masks;
        bool cdp = false;
        std::vector<std::uint32_t> dataWays, codeWays; // per CLOS
        std::vector<std::uint32_t> mbaDelay;
        std::vector<RmidCounters> rmids;
        std::uint32_t bmec[2] = { 0, 0 }; ///< BMEC filters of MBM total and local (setMbmEventConfig); 0 = none
        std::vector<std::uint64_t> unavailableUntil;
        double pressure = 1.0;
        std::uint64_t bytesThisTick = 0;
    };
    struct Cpu {
        Pqr pqr;
        std::vector<std::uint8_t> cba;
        std::array<std::uint32_t, kHitLevels> hist {};
        std::uint32_t histTotal = 0;
    };
    struct Thread {
        SimThreadInfo info;
        AddressGenerator gen;
        double credit = 0, rateCredit = 0;
    };

    SimMachine* self = nullptr;
    const SimFeatures* f = nullptr;
    const SimOptions* o = nullptr;
    std::uint32_t S = 1;
    unsigned sShift = 0; ///< log2(S): S is a power of two (SimMachine::create checks), so line / S is a shift
    std::uint64_t now = 0;
    std::vector<Core> cores;
    std::vector<Domain> domains;
    std::vector<Cpu> cpus;
    std::vector<Thread> threads;
    int nextTid = 1001;
    int nextListener = 1;
    std::map<int, std::function<void(std::uint64_t)>> listeners;
    std::uint64_t seedCounter = 0;
    TimeScale timeScale; ///< steady-state time sampling (scale 1 unless SimOptions::maxTimeScale allows more)

    std::uint32_t closCount() const { return f->closMax + 1; }

    void recomputeL3Ways(Domain& d)
    {
        const CatCaps& cat = f->l3Cat;
        d.dataWays.assign(closCount(), d.l3.allWays());
        d.codeWays.assign(closCount(), d.l3.allWays());
        if (!cat.present || o->ignoreCatMasks) return;
        for (std::uint32_t c = 0; c < closCount(); ++c) {
            if (d.cdp) {
                // Table 20-19: mask 2n = CLOS n data, 2n+1 = CLOS n code. A CLOS outside the lower half has
                // "undefined performance impact" (20.19.6.3); the model wraps it into the lower half.
                std::uint32_t half = std::max<std::uint32_t>(1, cat.numClos / 2);
                std::uint32_t n = c % half;
                d.dataWays[c] = waysOfCbm(d.l3Masks[2 * n], cat.cbmLen, d.l3.ways());
                d.codeWays[c] = waysOfCbm(d.l3Masks[2 * n + 1], cat.cbmLen, d.l3.ways());
            } else if (c < cat.numClos) {
                d.dataWays[c] = d.codeWays[c] = waysOfCbm(d.l3Masks[c], cat.cbmLen, d.l3.ways());
            } // CLOS beyond this resource's range are not subject to it (20.19.7.1)
        }
    }

    void recomputeL2Ways(Core& k)
    {
        const CatCaps& cat = f->l2Cat;
        k.l2DataWays.assign(closCount(), k.l2.allWays());
        k.l2CodeWays.assign(closCount(), k.l2.allWays());
        if (!cat.present) return;
        for (std::uint32_t c = 0; c < closCount(); ++c) {
            if (k.l2Cdp) {
                std::uint32_t half = std::max<std::uint32_t>(1, cat.numClos / 2);
                std::uint32_t n = c % half;
                k.l2DataWays[c] = waysOfCbm(k.l2Masks[2 * n], cat.cbmLen, k.l2.ways());
                k.l2CodeWays[c] = waysOfCbm(k.l2Masks[2 * n + 1], cat.cbmLen, k.l2.ways());
            } else if (c < cat.numClos) {
                k.l2DataWays[c] = k.l2CodeWays[c] = waysOfCbm(k.l2Masks[c], cat.cbmLen, k.l2.ways());
            }
        }
    }

    /// With SNC, the RMID the hardware counts with: the logical one plus the node's share of the RMIDs.
    Pqr physical(Pqr logical, unsigned cpu) const
    {
        const unsigned nodes = o->topology.sncNodes;
        if (nodes > 1 && f->mon.present) logical.rmid += o->topology.sncNodeOf(cpu) * ((f->mon.l3MaxRmid + 1) / nodes);
        return logical;
    }

    Pqr effective(const Thread& t) const
    {
        Pqr cpu = cpus[t.info.cpu].pqr;
        // __resctrl_sched_in: a task's own closid/rmid wins over the CPU's default when it is not 0.
        return { t.info.taskClos ? t.info.taskClos : cpu.clos, t.info.taskRmid ? t.info.taskRmid : cpu.rmid };
    }

    /// `victim`: a dirty line written back (else a read that missed the L3).
    void countMemory(Domain& d, std::uint32_t rmid, std::uint64_t bytes, bool local, bool victim)
    {
        d.bytesThisTick += bytes;
        if (rmid < d.rmids.size()) {
            RmidCounters& c = d.rmids[rmid];
            c.totalBytes += bytes;
            if (local) c.localBytes += bytes;
            (victim ? c.victimBytes : local ? c.localReadBytes : c.remoteReadBytes) += bytes;
        }
    }

    /// Writes a dirty line back one level down; from L3 it goes to memory.
    void writeBackFromL2(
        Core& k, Domain& d, CacheSlice::Tag key, std::uint8_t flags, std::uint32_t rmid, std::uint64_t unitBytes)
    {
        int i = d.l3.peek(key);
        if (i >= 0)
            d.l3.meta(static_cast<std::size_t>(i)).flags |= CacheSlice::Dirty;
        else
            countMemory(d, rmid, unitBytes, !(flags & CacheSlice::Remote), true);
        (void)k;
    }

    /// The sampled access path. key = line / S. Returns the level and adds memory bytes moved.
    HitLevel simulate(unsigned cpu, std::uint64_t key, AccessKind kind, Pqr tag, bool remote, std::uint64_t& memBytes)
    {
        return simulate(cores[o->topology.coreOf(cpu)], domains[o->topology.l3Of(cpu)], key, kind, tag, remote,
            std::uint64_t { S } * 64, memBytes);
    }

    // Forced inline into runThread (the per-access loop); the access() API calls it through simulate(cpu, ...).
    // `unitBytes`: the memory bytes one simulated line move stands for (S lines, times the time scale).
    [[gnu::always_inline]] HitLevel simulate(Core& k, Domain& d, std::uint64_t lineKey, AccessKind kind, Pqr tag,
        bool remote, std::uint64_t unitBytes, std::uint64_t& memBytes)
    {
        const CacheSlice::Tag key = CacheSlice::tagOf(lineKey);
        const bool code = kind == AccessKind::Code, store = kind == AccessKind::Store;
        CacheSlice& l1 = code ? k.l1i : k.l1d;
        const std::uint32_t clos = tag.clos < closCount() ? tag.clos : 0;
        const std::uint8_t lineFlags
            = static_cast<std::uint8_t>((code ? CacheSlice::Code : 0) | (remote ? CacheSlice::Remote : 0));
        const auto rmid16 = static_cast<std::uint16_t>(tag.rmid);
        const auto clos8 = static_cast<std::uint8_t>(clos);
        // Each level is looked up and, on a miss, filled in one call. The levels are separate slices, so filling
        // L1 before L2 and L2 before L3 leaves each slice in the state the order L3, L2, L1 gave; the victims'
        // writebacks, which peek other levels, still run after all fills, from L3 up.
        CacheSlice::Victim v1;
        const auto f1 = static_cast<std::uint8_t>(lineFlags | (store ? CacheSlice::Dirty : 0));
        const int i = l1.findOrFill(key, l1.allWays(), { rmid16, clos8, f1 }, v1);
        if (i >= 0) {
            if (store) l1.meta(static_cast<std::size_t>(i)).flags |= CacheSlice::Dirty;
            return HitLevel::L1;
        }
        HitLevel level;
        CacheSlice::Victim v2;
        const std::uint32_t l2ways = code ? k.l2CodeWays[clos] : k.l2DataWays[clos];
        if (k.l2.findOrFill(key, l2ways, { rmid16, clos8, lineFlags }, v2) >= 0) {
            level = HitLevel::L2;
        } else {
            CacheSlice::Victim v;
            const std::uint32_t ways = code ? d.codeWays[clos] : d.dataWays[clos];
            if (d.l3.findOrFill(key, ways, { rmid16, clos8, lineFlags }, v) >= 0) {
                level = HitLevel::L3;
            } else {
                level = remote ? HitLevel::RemoteDram : HitLevel::LocalDram;
                if (v.valid) {
                    if (v.meta.rmid < d.rmids.size()) d.rmids[v.meta.rmid].occupancyLines--;
                    if (v.meta.flags & CacheSlice::Dirty) {
                        // A dirty victim's writeback is charged to the request that caused it.
                        countMemory(d, tag.rmid, unitBytes, !(v.meta.flags & CacheSlice::Remote), true);
                        memBytes += unitBytes;
                    }
                }
                if (tag.rmid < d.rmids.size()) d.rmids[tag.rmid].occupancyLines++;
                countMemory(d, tag.rmid, unitBytes, !remote, false);
                memBytes += unitBytes;
            }
            if (v2.valid && (v2.meta.flags & CacheSlice::Dirty))
                writeBackFromL2(k, d, v2.key, v2.meta.flags, tag.rmid, unitBytes);
        }
        if (v1.valid && (v1.meta.flags & CacheSlice::Dirty)) {
            int j = k.l2.peek(v1.key);
            if (j >= 0)
                k.l2.meta(static_cast<std::size_t>(j)).flags |= CacheSlice::Dirty;
            else
                writeBackFromL2(k, d, v1.key, v1.meta.flags, tag.rmid, unitBytes);
        }
        return level;
    }

    double levelLatency(HitLevel l) const
    {
        const SimTiming& t = o->timing;
        switch (l) {
        case HitLevel::L1:
            return t.l1Cycles;
        case HitLevel::L2:
            return t.l2Cycles;
        case HitLevel::L3:
            return t.l3Cycles;
        case HitLevel::LocalDram:
            return t.dramLocalCycles;
        case HitLevel::RemoteDram:
            return t.dramRemoteCycles;
        }
        return 0;
    }

    std::uint32_t appliedMbaDelay(std::uint32_t raw) const
    {
        const MbaCaps& m = f->mba;
        std::uint32_t d = std::min(raw, m.maxDelay);
        if (m.linear) {
            std::uint32_t gran = m.maxDelay < 100 ? 100 - m.maxDelay : 1;
            return d - d % gran; // "rounded down" (20.19.7.2)
        }
        std::uint32_t p = 1;
        if (d == 0) return 0;
        while (p * 2 <= d)
            p *= 2;
        return p; // non-linear: rounded down to a power of two
    }

    /// AMD: the CLOS's limit (eighths of a GB/s) is shared by the busy cores running that CLOS in this L3 domain
    /// (AMD64 APM vol. 2 "L3 External Bandwidth Enforcement": one limit per COS per L3).
    double absoluteMbaFraction(unsigned cpu, const Domain& d) const
    {
        const std::uint32_t clos = currentClos(cpu);
        if (clos >= d.mbaDelay.size() || d.mbaDelay[clos] >= f->mba.maxBandwidth) return 1.0;
        const unsigned dom = o->topology.l3Of(cpu);
        unsigned sharing = 0;
        for (unsigned c = 0; c < cpus.size(); ++c)
            if (o->topology.l3Of(c) == dom && busy(c) && currentClos(c) == clos) ++sharing;
        const double bytesPerSec = double(d.mbaDelay[clos]) * 125e6 / double(std::max(1u, sharing));
        return std::clamp(bytesPerSec / o->timing.coreMaxMemBw, 0.01, 1.0);
    }

    bool busy(unsigned cpu) const
    {
        for (const Thread& t : threads)
            if (t.info.cpu == cpu && t.info.spec.pattern != Pattern::Idle) return true;
        return false;
    }

    double mbaFraction(unsigned cpu) const
    {
        if (!f->mba.present) return 1.0;
        const Domain& d = domains[o->topology.l3Of(cpu)];
        if (f->mba.absolute()) return absoluteMbaFraction(cpu, d);
        auto delayOf = [&](unsigned c) -> std::uint32_t {
            std::uint32_t clos = currentClos(c);
            return clos < f->mba.numClos ? appliedMbaDelay(d.mbaDelay[clos]) : 0;
        };
        std::uint32_t delay = 0;
        if (f->mba.perThread) {
            delay = delayOf(cpu);
        } else {
            // Initial MBA versions apply the maximum delay of the core's threads (20.19.7.2/20.19.7.3):
            // resctrl's thread_throttle_mode "max".
            unsigned tpc = o->topology.threadsPerCore, first = cpu / tpc * tpc;
            for (unsigned c = first; c < first + tpc; ++c)
                delay = std::max(delay, delayOf(c));
        }
        return std::max(0.01, (100.0 - double(delay)) / 100.0);
    }

    double cbaFraction(unsigned cpu) const
    {
        if (!f->cba.present) return 1.0;
        std::uint32_t clos = currentClos(cpu);
        std::uint32_t level = clos < cpus[cpu].cba.size() ? cpus[cpu].cba[clos] : 0;
        // Level 0 = unthrottled, maxLevel = strongest; modelled linearly (20.19.8.3).
        return std::max(0.01, 1.0 - double(level) / double(f->cba.maxLevel + 1));
    }

    std::uint32_t currentClos(unsigned cpu) const
    {
        for (const Thread& t : threads)
            if (t.info.cpu == cpu && t.info.spec.pattern != Pattern::Idle) return effective(t).clos;
        return cpus[cpu].pqr.clos;
    }

    void recordHist(unsigned cpu, HitLevel l)
    {
        Cpu& c = cpus[cpu];
        c.hist[static_cast<std::size_t>(l)]++;
        if (++c.histTotal > (1u << 16)) {
            c.histTotal = 0;
            for (auto& h : c.hist)
                c.histTotal += (h /= 2);
        }
    }

    HitLevel estimate(unsigned cpu, std::uint64_t line) const
    {
        const Cpu& c = cpus[cpu];
        if (c.histTotal == 0) return HitLevel::LocalDram;
        std::uint64_t h = line * 0x9E3779B97F4A7C15ull;
        std::uint32_t pick = static_cast<std::uint32_t>((h >> 32) % c.histTotal);
        for (int l = 0; l < kHitLevels; ++l) {
            if (pick < c.hist[static_cast<std::size_t>(l)]) return static_cast<HitLevel>(l);
            pick -= c.hist[static_cast<std::size_t>(l)];
        }
        return HitLevel::LocalDram;
    }

    void runThread(Thread& t, double cycles, double dtSec, double memCapBpc, double l3CapBpc)
    {
        if (t.info.spec.pattern == Pattern::Idle) {
            t.credit = 0;
            return;
        }
        const WorkloadSpec& spec = t.info.spec;
        const unsigned cpu = t.info.cpu;
        const unsigned socket = o->topology.socketOf(cpu);
        const int node = spec.memoryNode < 0 ? int(socket) : spec.memoryNode;
        const bool remote = node != int(socket);
        const Pqr tag = physical(effective(t), cpu);
        t.info.clos = tag.clos;
        t.info.rmid = effective(t).rmid;
        Domain& d = domains[o->topology.l3Of(cpu)];
        Core& core = cores[o->topology.coreOf(cpu)];
        const double mlp = spec.effectiveMlp();
        // One simulated access stands for S real ones (set sampling) times the time scale (a steady machine).
        const std::uint32_t weight = S * timeScale.scale();
        const double s = weight;
        // Cost of one simulated access per level, computed once per slice: no divisions per access.
        double cost[kHitLevels + 1];
        for (int l = 0; l < kHitLevels; ++l)
            cost[l] = s * (spec.computeCycles + levelLatency(static_cast<HitLevel>(l)) / mlp);
        cost[2] = s * (spec.computeCycles + std::max(levelLatency(HitLevel::L3) / mlp, 64.0 / l3CapBpc));
        const HitLevel dram = remote ? HitLevel::RemoteDram : HitLevel::LocalDram;
        const double dramLat = levelLatency(dram) / mlp;
        const double missCost = s * (spec.computeCycles + std::max(dramLat, 64.0 / memCapBpc) * d.pressure);
        const double missWbCost = s * (spec.computeCycles + std::max(dramLat, 128.0 / memCapBpc) * d.pressure);
        const std::uint64_t lineBytes = std::uint64_t { weight } * 64;
        t.credit += cycles;
        if (spec.rate > 0) t.rateCredit += spec.rate * dtSec / s;
        double used = 0;
        const double computePerAccess = s * spec.computeCycles;
        ThreadStats& st = t.info.stats;
        std::uint64_t accesses = 0;
        while (t.credit > 0 && (spec.rate <= 0 || t.rateCredit >= 1)) {
            std::uint64_t addr = 0;
            AccessKind kind = AccessKind::Load;
            t.gen.next(addr, kind);
            std::uint64_t bytes = 0;
            const HitLevel level = simulate(core, d, (addr >> 6) >> sShift, kind, tag, remote, lineBytes, bytes);
            recordHist(cpu, level);
            const auto li = static_cast<std::size_t>(level);
            const double c = level < HitLevel::LocalDram ? cost[li] : bytes > lineBytes ? missWbCost : missCost;
            t.credit -= c;
            used += c;
            if (spec.rate > 0) t.rateCredit -= 1;
            ++accesses;
            st.byLevel[li] += weight;
            if (level >= HitLevel::LocalDram) {
                st.memReadBytes += lineBytes;
                st.memWriteBytes += bytes - lineBytes;
            }
        }
        st.accesses += accesses * weight;
        st.instructions += static_cast<double>(accesses) * s * (1 + spec.computeCycles);
        st.memoryStallCycles += used - static_cast<double>(accesses) * computePerAccess;
        if (t.credit > 0) t.credit = 0; // rate-limited: the idle remainder is not banked
        if (spec.rate > 0 && t.rateCredit > 4) t.rateCredit = 4;
        t.info.stats.cycles += used;
    }

    void observeOccupancy()
    {
        std::vector<std::int64_t> occupancy;
        for (const Domain& d : domains)
            for (const RmidCounters& r : d.rmids)
                occupancy.push_back(r.occupancyLines);
        timeScale.observe(now, occupancy, domains.empty() ? 1 : static_cast<std::int64_t>(domains[0].l3.lineCount()));
    }

    void tick()
    {
        const double dtSec = double(o->tickNs) * 1e-9;
        const double hz = o->timing.ghz * 1e9;
        std::vector<unsigned> perCpu(cpus.size(), 0);
        for (const Thread& t : threads)
            if (t.info.spec.pattern != Pattern::Idle) perCpu[t.info.cpu]++;
        std::vector<double> memCap(cpus.size()), l3Cap(cpus.size());
        for (unsigned c = 0; c < cpus.size(); ++c) {
            double cba = cbaFraction(c);
            // The effective throttle is the stronger of MBA and CBA (20.19.8.3).
            double memFrac = std::min(mbaFraction(c), cba);
            memCap[c] = o->timing.coreMaxMemBw * memFrac / hz;
            l3Cap[c] = o->timing.coreMaxL3Bw * cba / hz;
        }
        for (Domain& d : domains)
            d.bytesThisTick = 0;
        const double sub = hz * dtSec / kSubSlices;
        for (int q = 0; q < kSubSlices; ++q) {
            std::size_t n = threads.size();
            for (std::size_t j = 0; j < n; ++j) {
                Thread& t = threads[(j + std::size_t(q)) % n];
                unsigned share = std::max(1u, perCpu[t.info.cpu]);
                runThread(t, sub / share, dtSec / kSubSlices, memCap[t.info.cpu], l3Cap[t.info.cpu]);
            }
        }
        for (Domain& d : domains) {
            // Memory controller saturation: when a socket's demand exceeds what it sustains, every miss there
            // costs proportionally more (a damped fixed-point update, one step per tick).
            double bw = double(d.bytesThisTick) / dtSec;
            // With several L3 domains per socket (CCX), each gets an even share of the socket's controllers: a
            // simplification of the CCD links of an EPYC.
            double ratio = bw / (o->timing.socketMemBw / o->topology.l3PerSocket());
            if (ratio > 0.98 || d.pressure > 1.0)
                d.pressure = std::max(1.0, d.pressure * std::sqrt(std::clamp(ratio / 0.98, 0.5, 2.0)));
        }
        now += o->tickNs;
        if (timeScale.due(now)) observeOccupancy();
        for (auto& [id, fn] : listeners)
            fn(now);
    }
};

} // namespace rdt::sim

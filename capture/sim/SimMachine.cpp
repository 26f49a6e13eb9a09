// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimMachine.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <map>

namespace rdt::sim {

const char* hitLevelName(HitLevel level)
{
    switch (level) {
    case HitLevel::L1:
        return "L1";
    case HitLevel::L2:
        return "L2";
    case HitLevel::L3:
        return "L3";
    case HitLevel::LocalDram:
        return "local DRAM";
    case HitLevel::RemoteDram:
        return "remote DRAM";
    }
    return "?";
}

namespace {

    std::uint32_t waysOfCbm(std::uint32_t cbm, std::uint32_t cbmLen, std::uint32_t ways)
    {
        if (cbmLen == 0)
            return ways >= 32 ? 0xFFFFFFFFu : (1u << ways) - 1;
        std::uint32_t out = 0;
        for (std::uint32_t bit = 0; bit < cbmLen; ++bit) {
            if (!(cbm & (1u << bit)))
                continue;
            std::uint32_t first = bit * ways / cbmLen;
            std::uint32_t last = std::max(first + 1, (bit + 1) * ways / cbmLen);
            for (std::uint32_t w = first; w < last && w < 32; ++w)
                out |= 1u << w;
        }
        return out;
    }

    constexpr int kSubSlices = 8; // threads interleave in 8 slices per tick so they contend in the caches

} // namespace

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
    std::uint64_t now = 0;
    std::vector<Core> cores;
    std::vector<Domain> domains;
    std::vector<Cpu> cpus;
    std::vector<Thread> threads;
    int nextTid = 1001;
    int nextListener = 1;
    std::map<int, std::function<void(std::uint64_t)>> listeners;
    std::uint64_t seedCounter = 0;

    std::uint32_t closCount() const { return f->closMax + 1; }

    void recomputeL3Ways(Domain& d)
    {
        const CatCaps& cat = f->l3Cat;
        d.dataWays.assign(closCount(), d.l3.allWays());
        d.codeWays.assign(closCount(), d.l3.allWays());
        if (!cat.present)
            return;
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
        if (!cat.present)
            return;
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

    Pqr effective(const Thread& t) const
    {
        Pqr cpu = cpus[t.info.cpu].pqr;
        // __resctrl_sched_in: a task's own closid/rmid wins over the CPU's default when it is not 0.
        return { t.info.taskClos ? t.info.taskClos : cpu.clos, t.info.taskRmid ? t.info.taskRmid : cpu.rmid };
    }

    void countMemory(Domain& d, std::uint32_t rmid, std::uint64_t bytes, bool local)
    {
        d.bytesThisTick += bytes;
        if (rmid < d.rmids.size()) {
            d.rmids[rmid].totalBytes += bytes;
            if (local)
                d.rmids[rmid].localBytes += bytes;
        }
    }

    /// Writes a dirty line back one level down; from L3 it goes to memory.
    void writeBackFromL2(Core& k, Domain& d, CacheSlice::Tag key, std::uint8_t flags, std::uint32_t rmid)
    {
        int i = d.l3.peek(key);
        if (i >= 0)
            d.l3.meta(static_cast<std::size_t>(i)).flags |= CacheSlice::Dirty;
        else
            countMemory(d, rmid, std::uint64_t { S } * 64, !(flags & CacheSlice::Remote));
        (void)k;
    }

    /// The sampled access path. key = line / S. Returns the level and adds memory bytes moved.
    HitLevel simulate(unsigned cpu, std::uint64_t key, AccessKind kind, Pqr tag, bool remote, std::uint64_t& memBytes)
    {
        return simulate(cores[o->topology.coreOf(cpu)], domains[o->topology.socketOf(cpu)], key, kind, tag, remote, memBytes);
    }

    HitLevel simulate(Core& k, Domain& d, std::uint64_t lineKey, AccessKind kind, Pqr tag, bool remote, std::uint64_t& memBytes)
    {
        const CacheSlice::Tag key = CacheSlice::tagOf(lineKey);
        const bool code = kind == AccessKind::Code, store = kind == AccessKind::Store;
        CacheSlice& l1 = code ? k.l1i : k.l1d;
        int i = l1.find(key);
        if (i >= 0) {
            if (store)
                l1.meta(static_cast<std::size_t>(i)).flags |= CacheSlice::Dirty;
            return HitLevel::L1;
        }
        const std::uint32_t clos = tag.clos < closCount() ? tag.clos : 0;
        const std::uint8_t lineFlags
            = static_cast<std::uint8_t>((code ? CacheSlice::Code : 0) | (remote ? CacheSlice::Remote : 0));
        HitLevel level;
        if (k.l2.find(key) >= 0) {
            level = HitLevel::L2;
        } else {
            if (d.l3.find(key) >= 0) {
                level = HitLevel::L3;
            } else {
                level = remote ? HitLevel::RemoteDram : HitLevel::LocalDram;
                CacheSlice::Victim v;
                const std::uint32_t ways = code ? d.codeWays[clos] : d.dataWays[clos];
                d.l3.fill(key, ways, { static_cast<std::uint16_t>(tag.rmid), static_cast<std::uint8_t>(clos), lineFlags }, v);
                if (v.valid) {
                    if (v.meta.rmid < d.rmids.size())
                        d.rmids[v.meta.rmid].occupancyLines--;
                    if (v.meta.flags & CacheSlice::Dirty) {
                        // A dirty victim's writeback is charged to the request that caused it.
                        countMemory(d, tag.rmid, std::uint64_t { S } * 64, !(v.meta.flags & CacheSlice::Remote));
                        memBytes += std::uint64_t { S } * 64;
                    }
                }
                if (tag.rmid < d.rmids.size())
                    d.rmids[tag.rmid].occupancyLines++;
                countMemory(d, tag.rmid, std::uint64_t { S } * 64, !remote);
                memBytes += std::uint64_t { S } * 64;
            }
            CacheSlice::Victim v2;
            const std::uint32_t l2ways = code ? k.l2CodeWays[clos] : k.l2DataWays[clos];
            k.l2.fill(key, l2ways, { static_cast<std::uint16_t>(tag.rmid), static_cast<std::uint8_t>(clos), lineFlags }, v2);
            if (v2.valid && (v2.meta.flags & CacheSlice::Dirty))
                writeBackFromL2(k, d, v2.key, v2.meta.flags, tag.rmid);
        }
        CacheSlice::Victim v1;
        std::uint8_t f1 = static_cast<std::uint8_t>(lineFlags | (store ? CacheSlice::Dirty : 0));
        l1.fill(key, l1.allWays(), { static_cast<std::uint16_t>(tag.rmid), static_cast<std::uint8_t>(clos), f1 }, v1);
        if (v1.valid && (v1.meta.flags & CacheSlice::Dirty)) {
            int j = k.l2.peek(v1.key);
            if (j >= 0)
                k.l2.meta(static_cast<std::size_t>(j)).flags |= CacheSlice::Dirty;
            else
                writeBackFromL2(k, d, v1.key, v1.meta.flags, tag.rmid);
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
        if (d == 0)
            return 0;
        while (p * 2 <= d)
            p *= 2;
        return p; // non-linear: rounded down to a power of two
    }

    double mbaFraction(unsigned cpu) const
    {
        if (!f->mba.present)
            return 1.0;
        const Domain& d = domains[o->topology.socketOf(cpu)];
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
        if (!f->cba.present)
            return 1.0;
        std::uint32_t clos = currentClos(cpu);
        std::uint32_t level = clos < cpus[cpu].cba.size() ? cpus[cpu].cba[clos] : 0;
        // Level 0 = unthrottled, maxLevel = strongest; modelled linearly (20.19.8.3).
        return std::max(0.01, 1.0 - double(level) / double(f->cba.maxLevel + 1));
    }

    std::uint32_t currentClos(unsigned cpu) const
    {
        for (const Thread& t : threads)
            if (t.info.cpu == cpu && t.info.spec.pattern != Pattern::Idle)
                return effective(t).clos;
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
        if (c.histTotal == 0)
            return HitLevel::LocalDram;
        std::uint64_t h = line * 0x9E3779B97F4A7C15ull;
        std::uint32_t pick = static_cast<std::uint32_t>((h >> 32) % c.histTotal);
        for (int l = 0; l < kHitLevels; ++l) {
            if (pick < c.hist[static_cast<std::size_t>(l)])
                return static_cast<HitLevel>(l);
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
        const Pqr tag = effective(t);
        t.info.clos = tag.clos;
        t.info.rmid = tag.rmid;
        Domain& d = domains[socket];
        Core& core = cores[o->topology.coreOf(cpu)];
        const double mlp = spec.effectiveMlp();
        const double s = S;
        // Cost of one simulated access (S real ones) per level, computed once per slice: no divisions per access.
        double cost[kHitLevels + 1];
        for (int l = 0; l < kHitLevels; ++l)
            cost[l] = s * (spec.computeCycles + levelLatency(static_cast<HitLevel>(l)) / mlp);
        cost[2] = s * (spec.computeCycles + std::max(levelLatency(HitLevel::L3) / mlp, 64.0 / l3CapBpc));
        const HitLevel dram = remote ? HitLevel::RemoteDram : HitLevel::LocalDram;
        const double dramLat = levelLatency(dram) / mlp;
        const double missCost = s * (spec.computeCycles + std::max(dramLat, 64.0 / memCapBpc) * d.pressure);
        const double missWbCost = s * (spec.computeCycles + std::max(dramLat, 128.0 / memCapBpc) * d.pressure);
        const std::uint64_t lineBytes = std::uint64_t { S } * 64;
        t.credit += cycles;
        if (spec.rate > 0)
            t.rateCredit += spec.rate * dtSec / s;
        double used = 0;
        ThreadStats& st = t.info.stats;
        std::uint64_t accesses = 0;
        while (t.credit > 0 && (spec.rate <= 0 || t.rateCredit >= 1)) {
            std::uint64_t addr = 0;
            AccessKind kind = AccessKind::Load;
            t.gen.next(addr, kind);
            std::uint64_t bytes = 0;
            const HitLevel level = simulate(core, d, (addr >> 6) / S, kind, tag, remote, bytes);
            recordHist(cpu, level);
            const auto li = static_cast<std::size_t>(level);
            const double c = level < HitLevel::LocalDram ? cost[li] : bytes > lineBytes ? missWbCost : missCost;
            t.credit -= c;
            used += c;
            if (spec.rate > 0)
                t.rateCredit -= 1;
            ++accesses;
            st.byLevel[li] += S;
            if (level >= HitLevel::LocalDram) {
                st.memReadBytes += lineBytes;
                st.memWriteBytes += bytes - lineBytes;
            }
        }
        st.accesses += accesses * S;
        if (t.credit > 0)
            t.credit = 0; // rate-limited: the idle remainder is not banked
        if (spec.rate > 0 && t.rateCredit > 4)
            t.rateCredit = 4;
        t.info.stats.cycles += used;
    }

    void tick()
    {
        const double dtSec = double(o->tickNs) * 1e-9;
        const double hz = o->timing.ghz * 1e9;
        std::vector<unsigned> perCpu(cpus.size(), 0);
        for (const Thread& t : threads)
            if (t.info.spec.pattern != Pattern::Idle)
                perCpu[t.info.cpu]++;
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
            double ratio = bw / o->timing.socketMemBw;
            if (ratio > 0.98 || d.pressure > 1.0)
                d.pressure = std::max(1.0, d.pressure * std::sqrt(std::clamp(ratio / 0.98, 0.5, 2.0)));
        }
        now += o->tickNs;
        for (auto& [id, fn] : listeners)
            fn(now);
    }
};

SimMachine::SimMachine(SimCpuid cpuid, SimFeatures features, SimOptions options)
    : m_impl(std::make_unique<Impl>())
    , m_cpuid(std::move(cpuid))
    , m_features(std::move(features))
    , m_options(options)
{
}

SimMachine::~SimMachine() = default;

Result<std::unique_ptr<SimMachine>> SimMachine::create(SimCpuid cpuid, SimOptions options)
{
    SimFeatures f = decodeFeatures(cpuid);
    const SimTopology& topo = options.topology;
    if (topo.sockets < 1 || topo.sockets > 8 || topo.coresPerSocket < 1 || topo.coresPerSocket > 128
        || topo.threadsPerCore < 1 || topo.threadsPerCore > 4)
        return errnoError(EINVAL, "unsupported simulated topology",
            "use 1-8 sockets, 1-128 cores per socket, 1-4 threads per core");
    if (!f.l3.present() || !f.l2.present() || !f.l1d.present())
        return errnoError(EINVAL, "the CPUID of '" + cpuid.name + "' does not describe L1, L2 and L3 (leaf 04H)",
            "use a dump that contains leaf 04H subleaves 0-3");
    std::uint32_t s = std::max<std::uint32_t>(1, options.setSampling);
    if ((s & (s - 1)) != 0)
        return errnoError(EINVAL, "set sampling factor must be a power of two", "e.g. 1, 16, 64");
    // CAT needs every way of a sampled set, so the sample must not be coarser than the CAT caches' set counts.
    while (s > 1 && (s > f.l3.sets || (f.l2Cat.present && s > f.l2.sets)))
        s /= 2;
    options.setSampling = s;
    if (options.tickNs == 0)
        options.tickNs = 1'000'000;
    std::unique_ptr<SimMachine> m(new SimMachine(std::move(cpuid), f, options));
    Impl& im = *m->m_impl;
    im.self = m.get();
    im.f = &m->m_features;
    im.o = &m->m_options;
    im.S = s;
    im.seedCounter = options.seed;
    im.cores.resize(topo.sockets * topo.coresPerSocket);
    const SimFeatures& F = m->m_features;
    for (auto& k : im.cores) {
        k.l1d.configure(F.l1d.sets * F.l1d.partitions, F.l1d.ways, s);
        const CacheGeometry& l1i = F.l1i.present() ? F.l1i : F.l1d;
        k.l1i.configure(l1i.sets * l1i.partitions, l1i.ways, s);
        k.l2.configure(F.l2.sets * F.l2.partitions, F.l2.ways, s);
    }
    // The L3 of one socket: CPUID.04H describes the whole shared cache.
    im.domains.resize(topo.sockets);
    const std::uint32_t rmids = F.mon.present ? F.mon.l3MaxRmid + 1 : 1;
    for (auto& d : im.domains) {
        d.l3.configure(F.l3.sets * F.l3.partitions, F.l3.ways, s);
        d.rmids.assign(rmids, {});
        d.unavailableUntil.assign(rmids, 0);
    }
    im.cpus.resize(topo.cpuCount());
    m->resetRdtState();
    return m;
}

std::uint64_t SimMachine::nowNs() const
{
    std::lock_guard lock(m_mutex);
    return m_impl->now;
}

void SimMachine::advance(std::uint64_t ns)
{
    std::lock_guard lock(m_mutex);
    std::uint64_t end = m_impl->now + ns;
    while (m_impl->now < end)
        m_impl->tick();
}

int SimMachine::addTickListener(std::function<void(std::uint64_t)> fn)
{
    std::lock_guard lock(m_mutex);
    int id = m_impl->nextListener++;
    m_impl->listeners[id] = std::move(fn);
    return id;
}

void SimMachine::removeTickListener(int id)
{
    std::lock_guard lock(m_mutex);
    m_impl->listeners.erase(id);
}

Result<int> SimMachine::addThread(const std::string& name, unsigned cpu, const WorkloadSpec& spec)
{
    std::lock_guard lock(m_mutex);
    if (cpu >= cpuCount())
        return errnoError(EINVAL, "thread '" + name + "': CPU " + std::to_string(cpu) + " does not exist",
            "the simulated machine has CPUs 0-" + std::to_string(cpuCount() - 1));
    Impl& im = *m_impl;
    int tid = im.nextTid++;
    std::uint64_t base = std::uint64_t(tid - 1000) << 38;
    Impl::Thread t { {}, AddressGenerator(spec, base, im.S, im.seedCounter * 7919 + std::uint64_t(tid)), 0, 0 };
    t.info.tid = tid;
    t.info.name = name;
    t.info.cpu = cpu;
    t.info.spec = spec;
    Pqr p = im.effective(t);
    t.info.clos = p.clos;
    t.info.rmid = p.rmid;
    im.threads.push_back(std::move(t));
    return tid;
}

Status SimMachine::removeThread(int tid)
{
    std::lock_guard lock(m_mutex);
    auto& v = m_impl->threads;
    auto it = std::find_if(v.begin(), v.end(), [&](const Impl::Thread& t) { return t.info.tid == tid; });
    if (it == v.end())
        return errnoError(ESRCH, "no simulated thread " + std::to_string(tid));
    v.erase(it);
    return {};
}

Status SimMachine::setThreadCpu(int tid, unsigned cpu)
{
    std::lock_guard lock(m_mutex);
    if (cpu >= cpuCount())
        return errnoError(EINVAL, "CPU " + std::to_string(cpu) + " does not exist");
    for (auto& t : m_impl->threads)
        if (t.info.tid == tid) {
            t.info.cpu = cpu;
            return {};
        }
    return errnoError(ESRCH, "no simulated thread " + std::to_string(tid));
}

Status SimMachine::setWorkload(int tid, const WorkloadSpec& spec)
{
    std::lock_guard lock(m_mutex);
    for (auto& t : m_impl->threads)
        if (t.info.tid == tid) {
            t.info.spec = spec;
            t.gen = AddressGenerator(spec, std::uint64_t(tid - 1000) << 38, m_impl->S,
                m_impl->seedCounter * 7919 + std::uint64_t(tid) + m_impl->now);
            return {};
        }
    return errnoError(ESRCH, "no simulated thread " + std::to_string(tid));
}

Status SimMachine::setTaskAssociation(int tid, std::uint32_t clos, std::uint32_t rmid)
{
    std::lock_guard lock(m_mutex);
    for (auto& t : m_impl->threads)
        if (t.info.tid == tid) {
            t.info.taskClos = clos;
            t.info.taskRmid = rmid;
            Pqr p = m_impl->effective(t);
            t.info.clos = p.clos;
            t.info.rmid = p.rmid;
            return {};
        }
    return errnoError(ESRCH, "no simulated thread " + std::to_string(tid));
}

std::vector<SimThreadInfo> SimMachine::threads() const
{
    std::lock_guard lock(m_mutex);
    std::vector<SimThreadInfo> out;
    for (const auto& t : m_impl->threads) {
        out.push_back(t.info);
        Pqr p = m_impl->effective(t);
        out.back().clos = p.clos;
        out.back().rmid = p.rmid;
    }
    return out;
}

std::optional<SimThreadInfo> SimMachine::thread(int tid) const
{
    for (auto& t : threads())
        if (t.tid == tid)
            return t;
    return std::nullopt;
}

std::optional<int> SimMachine::findThread(const std::string& name) const
{
    std::lock_guard lock(m_mutex);
    for (const auto& t : m_impl->threads)
        if (t.info.name == name)
            return t.info.tid;
    return std::nullopt;
}

AccessResult SimMachine::access(unsigned cpu, std::uint64_t address, AccessKind kind)
{
    std::lock_guard lock(m_mutex);
    Impl& im = *m_impl;
    if (cpu >= cpuCount())
        cpu = 0;
    std::uint64_t line = address >> 6;
    AccessResult r;
    if (line % im.S != 0) {
        r.simulated = false;
        r.level = im.estimate(cpu, line);
    } else {
        Pqr tag = im.cpus[cpu].pqr;
        for (const auto& t : im.threads)
            if (t.info.cpu == cpu) {
                tag = im.effective(t);
                break;
            }
        std::uint64_t bytes = 0;
        r.level = im.simulate(cpu, line / im.S, kind, tag, false, bytes);
        im.recordHist(cpu, r.level);
    }
    r.latencyCycles = static_cast<std::uint32_t>(im.levelLatency(r.level));
    return r;
}

SimMachine::Pqr SimMachine::pqr(unsigned cpu) const
{
    std::lock_guard lock(m_mutex);
    return cpu < m_impl->cpus.size() ? m_impl->cpus[cpu].pqr : Pqr {};
}

void SimMachine::setPqr(unsigned cpu, Pqr value)
{
    std::lock_guard lock(m_mutex);
    if (cpu < m_impl->cpus.size())
        m_impl->cpus[cpu].pqr = value;
}

std::uint32_t SimMachine::l3Mask(unsigned domain, std::uint32_t index) const
{
    std::lock_guard lock(m_mutex);
    const auto& d = m_impl->domains.at(domain);
    return index < d.l3Masks.size() ? d.l3Masks[index] : 0;
}

void SimMachine::setL3Mask(unsigned domain, std::uint32_t index, std::uint32_t cbm)
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    if (index < d.l3Masks.size()) {
        d.l3Masks[index] = cbm;
        m_impl->recomputeL3Ways(d);
    }
}

std::uint32_t SimMachine::l2Mask(unsigned l2Domain, std::uint32_t index) const
{
    std::lock_guard lock(m_mutex);
    const auto& k = m_impl->cores.at(l2Domain);
    return index < k.l2Masks.size() ? k.l2Masks[index] : 0;
}

void SimMachine::setL2Mask(unsigned l2Domain, std::uint32_t index, std::uint32_t cbm)
{
    std::lock_guard lock(m_mutex);
    auto& k = m_impl->cores.at(l2Domain);
    if (index < k.l2Masks.size()) {
        k.l2Masks[index] = cbm;
        m_impl->recomputeL2Ways(k);
    }
}

bool SimMachine::l3Cdp(unsigned domain) const
{
    std::lock_guard lock(m_mutex);
    return m_impl->domains.at(domain).cdp;
}

void SimMachine::setL3Cdp(unsigned domain, bool on)
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    d.cdp = on;
    m_impl->recomputeL3Ways(d);
}

bool SimMachine::l2Cdp(unsigned l2Domain) const
{
    std::lock_guard lock(m_mutex);
    return m_impl->cores.at(l2Domain).l2Cdp;
}

void SimMachine::setL2Cdp(unsigned l2Domain, bool on)
{
    std::lock_guard lock(m_mutex);
    auto& k = m_impl->cores.at(l2Domain);
    k.l2Cdp = on;
    m_impl->recomputeL2Ways(k);
}

std::uint32_t SimMachine::mbaDelay(unsigned domain, std::uint32_t clos) const
{
    std::lock_guard lock(m_mutex);
    const auto& d = m_impl->domains.at(domain);
    return clos < d.mbaDelay.size() ? d.mbaDelay[clos] : 0;
}

void SimMachine::setMbaDelay(unsigned domain, std::uint32_t clos, std::uint32_t delay)
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    if (clos < d.mbaDelay.size())
        d.mbaDelay[clos] = delay;
}

std::uint8_t SimMachine::cbaLevel(unsigned cpu, std::uint32_t clos) const
{
    std::lock_guard lock(m_mutex);
    const auto& c = m_impl->cpus.at(cpu);
    return clos < c.cba.size() ? c.cba[clos] : 0;
}

void SimMachine::setCbaLevel(unsigned cpu, std::uint32_t clos, std::uint8_t level)
{
    std::lock_guard lock(m_mutex);
    auto& c = m_impl->cpus.at(cpu);
    if (clos < c.cba.size())
        c.cba[clos] = level;
}

void SimMachine::resetRdtState()
{
    std::lock_guard lock(m_mutex);
    Impl& im = *m_impl;
    const SimFeatures& F = m_features;
    for (auto& d : im.domains) {
        d.l3Masks.assign(F.l3Cat.present ? F.l3Cat.numClos : 0, F.l3Cat.fullMask());
        d.cdp = false;
        d.mbaDelay.assign(F.mba.present ? F.mba.numClos : 0, 0);
        im.recomputeL3Ways(d);
    }
    for (auto& k : im.cores) {
        k.l2Masks.assign(F.l2Cat.present ? F.l2Cat.numClos : 0, F.l2Cat.fullMask());
        k.l2Cdp = false;
        im.recomputeL2Ways(k);
    }
    for (auto& c : im.cpus) {
        c.pqr = {};
        c.cba.assign(F.cba.present ? F.cba.numClos : 0, 0);
    }
}

RmidCounters SimMachine::counters(unsigned domain, std::uint32_t rmid) const
{
    std::lock_guard lock(m_mutex);
    const auto& d = m_impl->domains.at(domain);
    return rmid < d.rmids.size() ? d.rmids[rmid] : RmidCounters {};
}

std::uint64_t SimMachine::occupancyBytes(unsigned domain, std::uint32_t rmid) const
{
    RmidCounters c = counters(domain, rmid);
    return c.occupancyLines <= 0 ? 0 : std::uint64_t(c.occupancyLines) * m_impl->S * m_features.l3.lineSize;
}

std::optional<std::uint64_t> SimMachine::counterUnits(unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    std::lock_guard lock(m_mutex);
    const MonCaps& mon = m_features.mon;
    if (!mon.present || rmid > mon.l3MaxRmid || domain >= m_impl->domains.size())
        return std::nullopt;
    const RmidCounters& c = m_impl->domains[domain].rmids[rmid];
    const std::uint64_t widthMask = mon.counterWidth >= 64 ? ~0ull : (1ull << mon.counterWidth) - 1;
    switch (event) {
    case 1:
        if (!mon.occupancy)
            return std::nullopt;
        return occupancyBytes(domain, rmid) / mon.scale;
    case 2:
        if (!mon.mbmTotal)
            return std::nullopt;
        return (c.totalBytes / mon.scale) & widthMask;
    case 3:
        if (!mon.mbmLocal)
            return std::nullopt;
        return (c.localBytes / mon.scale) & widthMask;
    default:
        return std::nullopt;
    }
}

std::uint64_t SimMachine::counterWraps(unsigned domain, std::uint32_t rmid, std::uint32_t event) const
{
    std::lock_guard lock(m_mutex);
    const MonCaps& mon = m_features.mon;
    if (!mon.present || rmid > mon.l3MaxRmid || domain >= m_impl->domains.size() || mon.counterWidth >= 64)
        return 0;
    const RmidCounters& c = m_impl->domains[domain].rmids[rmid];
    std::uint64_t bytes = event == 2 ? c.totalBytes : event == 3 ? c.localBytes : 0;
    return (bytes / mon.scale) >> mon.counterWidth;
}

void SimMachine::setUnavailable(unsigned domain, std::uint32_t rmid, std::uint64_t untilNs)
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    if (rmid < d.unavailableUntil.size())
        d.unavailableUntil[rmid] = untilNs;
}

bool SimMachine::unavailable(unsigned domain, std::uint32_t rmid) const
{
    std::lock_guard lock(m_mutex);
    const auto& d = m_impl->domains.at(domain);
    return rmid < d.unavailableUntil.size() && m_impl->now < d.unavailableUntil[rmid];
}

std::vector<std::vector<std::uint64_t>> SimMachine::occupancyByClosAndWay(unsigned domain) const
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    std::vector<std::vector<std::uint64_t>> out(m_features.closMax + 1, std::vector<std::uint64_t>(d.l3.ways(), 0));
    const std::uint64_t per = std::uint64_t { m_impl->S } * m_features.l3.lineSize;
    for (std::size_t i = 0; i < d.l3.lineCount(); ++i)
        if (d.l3.key(i) != CacheSlice::kInvalid) {
            auto clos = d.l3.meta(i).clos;
            if (clos < out.size())
                out[clos][d.l3.wayOf(i)] += per;
        }
    return out;
}

std::vector<std::uint64_t> SimMachine::occupancyByWay(unsigned domain, bool code) const
{
    std::lock_guard lock(m_mutex);
    auto& d = m_impl->domains.at(domain);
    std::vector<std::uint64_t> out(d.l3.ways(), 0);
    for (std::size_t i = 0; i < d.l3.lineCount(); ++i)
        if (d.l3.key(i) != CacheSlice::kInvalid && bool(d.l3.meta(i).flags & CacheSlice::Code) == code)
            out[d.l3.wayOf(i)] += std::uint64_t { m_impl->S } * m_features.l3.lineSize;
    return out;
}

std::uint32_t SimMachine::waysOfL3Cbm(std::uint32_t cbm) const
{
    return waysOfCbm(cbm, m_features.l3Cat.cbmLen, m_impl->domains.at(0).l3.ways());
}

std::uint32_t SimMachine::waysOfL2Cbm(std::uint32_t cbm) const
{
    return waysOfCbm(cbm, m_features.l2Cat.cbmLen, m_impl->cores.at(0).l2.ways());
}

std::uint32_t SimMachine::l3Ways() const { return m_impl->domains.at(0).l3.ways(); }

void SimMachine::flushCaches()
{
    std::lock_guard lock(m_mutex);
    const SimFeatures& F = m_features;
    std::uint32_t s = m_impl->S;
    for (auto& k : m_impl->cores) {
        k.l1d.configure(F.l1d.sets * F.l1d.partitions, F.l1d.ways, s);
        const CacheGeometry& l1i = F.l1i.present() ? F.l1i : F.l1d;
        k.l1i.configure(l1i.sets * l1i.partitions, l1i.ways, s);
        k.l2.configure(F.l2.sets * F.l2.partitions, F.l2.ways, s);
        m_impl->recomputeL2Ways(k);
    }
    for (auto& d : m_impl->domains) {
        d.l3.configure(F.l3.sets * F.l3.partitions, F.l3.ways, s);
        for (auto& r : d.rmids)
            r.occupancyLines = 0;
        m_impl->recomputeL3Ways(d);
    }
}

double SimMachine::throttleFraction(unsigned cpu) const
{
    std::lock_guard lock(m_mutex);
    return std::min(m_impl->mbaFraction(cpu), m_impl->cbaFraction(cpu));
}

} // namespace rdt::sim

// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimPmu.h"

#include "RecordWriter.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rdt::pmu {

namespace {
constexpr double kWidth = 4; // issue slots per cycle of the simulated core (CPUID.23H would say so)
constexpr double kMispredictPenalty = 16; // cycles lost per mispredicted branch
constexpr std::uint64_t kTimeBase = 1'000'000'000; // ns: simulated time starts at 1 s

std::uint64_t dataSourceFor(const SimAccess& a)
{
    using DS = DataSource;
    switch (a.level) {
    case MemLevel::L1:
        return DS::encode(
            DS::OpLoad, DS::LvlHit | DS::LvlL1, DS::SnoopNone, DS::LockNa, DS::TlbHit | DS::TlbL1, DS::LvlNumL1);
    case MemLevel::L2:
        return DS::encode(
            DS::OpLoad, DS::LvlHit | DS::LvlL2, DS::SnoopNone, DS::LockNa, DS::TlbHit | DS::TlbL1, DS::LvlNumL2);
    case MemLevel::L3:
        return DS::encode(DS::OpLoad, DS::LvlHit | DS::LvlL3, a.hitm ? DS::SnoopHitm : DS::SnoopHit, DS::LockNa,
            DS::TlbHit | DS::TlbL1, DS::LvlNumL3);
    case MemLevel::RemoteDram:
        return DS::encode(DS::OpLoad, DS::LvlHit | DS::LvlRemRam1, DS::SnoopMiss, DS::LockNa, DS::TlbHit | DS::TlbL2,
            DS::LvlNumRam, true, 0, 0, 3);
    default:
        return DS::encode(
            DS::OpLoad, DS::LvlHit | DS::LvlLocRam, DS::SnoopMiss, DS::LockNa, DS::TlbHit | DS::TlbL2, DS::LvlNumRam);
    }
}
} // namespace

Result<SimPmu> SimPmu::create(const SimPmuConfig& config, std::unique_ptr<SimMemoryModel> memory)
{
    SimPmu p;
    p.m_config = config;
    auto program = SimProgram::named(config.program, config.memoryScale);
    if (!program) return program.error();
    p.m_program = std::move(*program);
    p.m_memory = memory ? std::move(memory) : std::make_unique<SmallCacheHierarchy>();
    auto ring = MemoryRing::create(config.ringBytes);
    if (!ring) return ring.error();
    p.m_ring.emplace(std::move(*ring));
    p.m_rng.seed(config.seed);
    // The same recipes as real hardware of that generation define the attrs (and which TMA formula applies).
    const EventEncoder enc
        = EventEncoder::forModel(modelForPfmName(config.model.pfmName, "simulated " + config.model.label));
    RecipeOptions opt;
    opt.period = config.samplePeriodCycles;
    opt.ldlat = config.ldlat;
    opt.lbrDepth = config.lbrDepth;
    opt.skylakeLevel2 = true; // pre-Ice Lake models: level 2 from generic counters (the simulator has no counter limit)
    Result<Recipe> r = makeError("unknown capture");
    switch (config.capture) {
    case SimCapture::Tma:
        r = tmaRecipe(enc, opt);
        break;
    case SimCapture::LbrAny:
        r = lbrRecipe(enc, LbrMode::AnyBranch, opt);
        break;
    case SimCapture::LbrCallStack:
        r = lbrRecipe(enc, LbrMode::CallStack, opt);
        break;
    case SimCapture::LoadLatency:
        opt.period = config.loadPeriod;
        r = loadLatencyRecipe(enc, opt);
        break;
    }
    if (!r) return r.error();
    p.m_recipe = std::move(*r);
    p.m_recipe.description = "simulated " + p.m_recipe.description;
    p.m_lbr.assign(std::max(1u, config.lbrDepth), BranchEntry {});
    p.m_cursor.assign(p.m_program.functions.size(), 0);
    p.m_nextSample = static_cast<double>(config.samplePeriodCycles);
    return p;
}

std::uint64_t SimPmu::nowNs() const
{
    return kTimeBase + static_cast<std::uint64_t>(m_truth.cycles / m_config.ghz);
}

void SimPmu::addEventsTo(RecordDecoder& decoder) const
{
    for (std::size_t i = 0; i < m_recipe.events.size(); ++i) {
        const std::uint64_t id = eventId(i);
        decoder.addEvent(m_recipe.events[i].attr, std::span<const std::uint64_t>(&id, 1));
    }
}

void SimPmu::registerSymbols(Symbolizer& symbols) const
{
    symbols.addSymbolTable(m_config.pid, m_program.module, m_program.symbols());
    symbols.setComm(m_config.pid, m_program.module);
}

void SimPmu::start()
{
    m_started = true;
    if (m_config.capture == SimCapture::Tma) return; // counting only: no ring traffic
    const EventAttr& a = samplingAttr();
    SampleIdTrailer id;
    id.pid = id.tid = m_config.pid;
    id.time = nowNs();
    id.identifier = id.id = eventId(m_recipe.events.size() - 1);
    m_bytes.clear();
    RecordWriter::comm(a, m_config.pid, m_config.pid, m_program.module, true, id, m_bytes);
    (void)m_ring->write(m_bytes);
    MmapRecord m;
    m.isMmap2 = true;
    m.pid = m.tid = m_config.pid;
    m.addr = m_program.base;
    m.len = m_program.end() - m_program.base;
    m.pgoff = 0x1000;
    m.prot = 5; // PROT_READ|PROT_EXEC
    m.flags = 2; // MAP_PRIVATE
    m.filename = m_program.path;
    m_bytes.clear();
    RecordWriter::mmap2(a, m, id, m_bytes);
    (void)m_ring->write(m_bytes);
}

void SimPmu::emit(Sample& s)
{
    m_bytes.clear();
    s.identifier = s.id = eventId(m_recipe.events.size() - 1);
    if (!RecordWriter::sample(samplingAttr(), s, m_bytes)) return;
    if (m_ring->write(m_bytes))
        ++m_truth.samplesWritten;
    else
        ++m_truth.samplesDropped; // the ring reports it as PERF_RECORD_LOST, like the kernel
}

void SimPmu::branch(std::uint64_t from, std::uint64_t to, std::uint8_t type, bool mispredicted)
{
    ++m_truth.branches;
    const double elapsed = m_truth.cycles - m_lastBranchCycles;
    m_lastBranchCycles = m_truth.cycles;
    const auto cycles = static_cast<std::uint16_t>(std::clamp(elapsed, 1.0, 65535.0));
    m_lbr[m_lbrHead] = BranchEntry { from, to, BranchEntry::makeFlags(mispredicted, !mispredicted, cycles, type) };
    m_lbrHead = (m_lbrHead + 1) % m_lbr.size();
    m_lbrCount = std::min(m_lbrCount + 1, m_lbr.size());
}

void SimPmu::maybeSampleLbr()
{
    const bool lbr = m_config.capture == SimCapture::LbrAny || m_config.capture == SimCapture::LbrCallStack;
    if (!lbr || m_truth.cycles < m_nextSample || m_stack.empty()) return;
    m_nextSample += static_cast<double>(m_config.samplePeriodCycles);
    Sample& s = m_sample;
    s.present = samplingAttr().sampleType;
    s.misc = perf::MiscUser;
    const SimFunction& f = m_program.functions[m_stack.back().fn];
    s.ip = f.loopTop() + 8;
    s.pid = s.tid = m_config.pid;
    s.time = nowNs();
    s.cpu = 0;
    s.period = m_config.samplePeriodCycles;
    s.branches.clear();
    s.callchain.clear();
    if (m_config.capture == SimCapture::LbrAny) {
        for (std::size_t i = 0; i < m_lbrCount; ++i) // most recent first
            s.branches.push_back(m_lbr[(m_lbrHead + m_lbr.size() - 1 - i) % m_lbr.size()]);
    } else {
        // Call-stack mode: the LBR holds the active calls (SDM 21.1.2.4), at most lbrDepth of them, newest first;
        // flags are empty (NO_FLAGS|NO_CYCLES). The callchain has the user context marker and the IP as the kernel's
        // frame-pointer walk would start it.
        const std::size_t n = std::min<std::size_t>(m_callStack.size(), m_lbr.size());
        for (std::size_t i = 0; i < n; ++i) {
            const BranchEntry& c = m_callStack[m_callStack.size() - 1 - i];
            s.branches.push_back(BranchEntry { c.from, c.to, 0 });
        }
        s.hwIdx = m_callStack.size() % m_lbr.size();
        s.callchain = { perf::ContextUser, s.ip };
    }
    s.branchNr = s.branches.size();
    emit(s);
}

std::uint64_t SimPmu::nextAddress(const SimFunction& f, std::size_t fnIndex)
{
    std::uint64_t& cur = m_cursor[fnIndex];
    switch (f.pattern) {
    case AccessPattern::Sequential:
        cur = (cur + f.stride) % f.regionBytes;
        return f.regionBase + cur;
    case AccessPattern::Random:
    case AccessPattern::PointerChase:
    case AccessPattern::SharedWrite:
    case AccessPattern::None:
        break;
    }
    const std::uint64_t lines = std::max<std::uint64_t>(1, f.regionBytes / 64);
    return f.regionBase + (m_rng() % lines) * 64 + (m_rng() % 8) * 8;
}

void SimPmu::load(const SimFunction& f, std::uint32_t index)
{
    const std::size_t fnIndex = static_cast<std::size_t>(&f - m_program.functions.data());
    if (f.pattern == AccessPattern::SharedWrite && (++m_otherCoreWrites % 2) == 0) {
        // The other thread of the simulated server bumps the same counters from core 1.
        (void)m_memory->access(f.regionBase + (m_rng() % (f.regionBytes / 64)) * 64, true, 1);
    }
    const std::uint64_t addr = nextAddress(f, fnIndex);
    SimAccess a = m_memory->access(addr, false, 0);
    // Queueing in the fabric and DRAM: spread beyond-L2 latencies by up to +25% so histograms have width.
    if (a.level != MemLevel::L1 && a.level != MemLevel::L2)
        a.latency += static_cast<std::uint32_t>(m_rng() % (a.latency / 4 + 1));
    ++m_truth.loads;
    ++m_truth.loadsByLevel[static_cast<std::size_t>(a.level)];
    const double l1 = 5;
    const double stall = std::max(0.0, static_cast<double>(a.latency) - l1) * f.overlap;
    m_truth.memStallCycles += stall;
    m_truth.cycles += stall;
    if (m_config.capture != SimCapture::LoadLatency || a.latency < m_config.ldlat) return;
    if (++m_loadCandidates % std::max<std::uint64_t>(1, m_config.loadPeriod) != 0) return;
    Sample& s = m_sample;
    s.present = samplingAttr().sampleType;
    s.misc = perf::MiscUser | perf::MiscExactIp; // PEBS: precise IP
    s.ip = f.loadIp(index);
    s.pid = s.tid = m_config.pid;
    s.time = nowNs();
    s.addr = addr;
    s.cpu = 0;
    s.period = m_config.loadPeriod;
    s.weight = {};
    s.weight.var1 = a.latency;
    s.weight.var2 = static_cast<std::uint16_t>(std::min<std::uint32_t>(a.latency + 3, 0xffff)); // ins_lat
    s.weight.full = a.latency;
    s.dataSrc = dataSourceFor(a);
    s.branches.clear();
    s.callchain.clear();
    emit(s);
}

void SimPmu::iterate(Frame& frame)
{
    const SimFunction& f = m_program.functions[frame.fn];
    if (!frame.bodyDone) {
        frame.bodyDone = true;
        for (std::uint32_t i = 0; i < f.loadsPerIter; ++i)
            load(f, i);
        m_truth.uops += f.uopsPerIter;
        m_truth.cycles += f.uopsPerIter / kWidth + f.feStallPerIter + f.coreStallPerIter;
        m_truth.feStallCycles += f.feStallPerIter;
        m_truth.coreStallCycles += f.coreStallPerIter;
        maybeSampleLbr();
    }
    // Then each entry of the call table, in order, with its probability (returns resume here).
    while (frame.nextCall < f.calls.size()) {
        const std::size_t k = frame.nextCall++;
        if (uniform() >= f.calls[k].second) continue;
        const std::size_t callee = f.calls[k].first;
        const SimFunction& c = m_program.functions[callee];
        const std::uint64_t site = f.callSite(k);
        ++m_truth.calls;
        m_truth.cycles += 1;
        branch(site, c.start, perf::BrCall, false);
        m_callStack.push_back(BranchEntry { site, c.start, 0 });
        const auto iters = c.itersMin + static_cast<std::uint32_t>(m_rng() % (c.itersMax - c.itersMin + 1));
        m_stack.push_back(Frame { callee, iters, site + 5 }); // invalidates `frame`
        return;
    }
    // The loop's conditional back-edge (taken while iterations remain).
    frame.bodyDone = false;
    frame.nextCall = 0;
    --frame.itersLeft;
    const bool mispredicted = uniform() < f.loopMispredict;
    if (mispredicted) {
        ++m_truth.mispredicts;
        m_truth.cycles += kMispredictPenalty;
        m_truth.badSpecCycles += kMispredictPenalty;
    }
    if (frame.itersLeft > 0) branch(f.loopBranch(), f.loopTop(), perf::BrCond, mispredicted);
}

void SimPmu::run(std::uint64_t cycles)
{
    if (!m_started) start();
    const double until = m_truth.cycles + static_cast<double>(cycles);
    while (m_truth.cycles < until) {
        if (m_stack.empty()) {
            const SimFunction& main = m_program.functions[0];
            m_stack.push_back(Frame { 0, main.itersMax, 0 });
            m_callStack.clear();
        }
        Frame& top = m_stack.back();
        if (top.itersLeft == 0) {
            const SimFunction& f = m_program.functions[top.fn];
            const std::uint64_t ret = top.returnTo;
            m_stack.pop_back();
            if (!m_callStack.empty()) m_callStack.pop_back();
            if (ret != 0) branch(f.retIp(), ret, perf::BrRet, false);
            m_truth.cycles += 1;
            continue;
        }
        iterate(top);
    }
}

std::vector<std::byte> SimPmu::readGroup() const
{
    // Slots per category, consistent by construction: every simulated cycle is 4 slots and lands in one bucket.
    const SimTruth& t = m_truth;
    const double slots = kWidth * t.cycles;
    const double retiring = static_cast<double>(t.uops);
    const double badSpec = kWidth * t.badSpecCycles;
    const double fe = kWidth * t.feStallCycles;
    const double mem = kWidth * t.memStallCycles;
    const double be = std::max(0.0, slots - retiring - badSpec - fe);
    // Before Ice Lake the categories come from generic counters (Recipes.h, TmaModel::PreIcelake): bad speculation
    // = UOPS_ISSUED - RETIRE_SLOTS + 4 * RECOVERY_CYCLES. Half of the lost cycles count as recovery cycles and the
    // rest as issued-then-flushed uops, so the formula gives back exactly the slots lost.
    const double recovery = t.badSpecCycles / 2;
    const double issued = retiring + badSpec - kWidth * recovery;
    // Pre-Ice Lake level 2 (SkylakeTmaCounts::level2): the raw events whose formulas give the same split as the
    // PERF_METRICS values below. Frontend stall cycles deliver no uop; 60 % of them count as latency (0-uop cycles)
    // and the rest as bandwidth-starved slots, the split the Sapphire Rapids model reports. Memory stall cycles are
    // CYCLE_ACTIVITY.STALLS_MEM_ANY, memory plus core stall cycles STALLS_TOTAL; 92 % of the bad-speculation events
    // are branch mispredicts; IDQ.MS_UOPS is 8 % of the issued uops (microcoded). The model has no store buffer and
    // no execution ports, so EXE_ACTIVITY.BOUND_ON_STORES and the port-utilisation events read 0.
    const double clears = static_cast<double>(t.mispredicts) * (0.08 / 0.92);
    auto u = [](double v) { return static_cast<std::uint64_t>(std::llround(std::max(0.0, v))); };
    std::vector<std::uint64_t> values;
    for (const auto& e : m_recipe.events) {
        switch (e.role) {
        case EventRole::Slots:
            values.push_back(u(slots));
            break;
        case EventRole::Retiring:
            values.push_back(u(retiring));
            break;
        case EventRole::BadSpec:
            values.push_back(u(badSpec));
            break;
        case EventRole::FeBound:
            values.push_back(u(fe));
            break;
        case EventRole::BeBound:
            values.push_back(u(be));
            break;
        case EventRole::HeavyOps:
            values.push_back(u(retiring * 0.08));
            break; // microcoded/multi-uop share
        case EventRole::BrMispredict:
            values.push_back(u(badSpec * 0.92));
            break;
        case EventRole::FetchLat:
            values.push_back(u(fe * 0.6));
            break;
        case EventRole::MemBound:
            values.push_back(u(std::min(mem, be)));
            break;
        case EventRole::Cycles:
            values.push_back(u(t.cycles));
            break;
        case EventRole::UopsIssued:
            values.push_back(u(issued));
            break;
        case EventRole::UopsRetiredSlots:
            values.push_back(u(retiring));
            break;
        case EventRole::IdqUopsNotDelivered:
            values.push_back(u(fe));
            break;
        case EventRole::RecoveryCycles:
            values.push_back(u(recovery));
            break;
        case EventRole::Cycles0UopsDelivered:
            values.push_back(u(t.feStallCycles * 0.6));
            break;
        case EventRole::BrMispRetired:
            values.push_back(t.mispredicts);
            break;
        case EventRole::MachineClearsCount:
            values.push_back(u(clears));
            break;
        case EventRole::StallsMemAny:
            values.push_back(u(t.memStallCycles));
            break;
        case EventRole::StallsTotal:
            values.push_back(u(t.memStallCycles + t.coreStallCycles));
            break;
        case EventRole::IdqMsUops:
            values.push_back(u(issued * 0.08));
            break;
        default:
            values.push_back(0);
            break;
        }
    }
    const std::uint64_t timeNs = static_cast<std::uint64_t>(t.cycles / m_config.ghz);
    std::vector<std::uint64_t> words { values.size(), timeNs, timeNs };
    for (std::size_t i = 0; i < values.size(); ++i) {
        words.push_back(values[i]);
        words.push_back(eventId(i));
    }
    std::vector<std::byte> out(words.size() * 8);
    std::memcpy(out.data(), words.data(), out.size());
    return out;
}

} // namespace rdt::pmu

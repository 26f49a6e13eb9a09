// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuCodec.h"

#include "EngineCodec.h"

#include <cerrno>

namespace rdt::remote {

namespace {

Error malformed(const std::string& what)
{
    return errnoError(
        EPROTO, "the agent sent a malformed " + what, "install the same rdtscope release on both machines");
}

void toWire(const pmu::TmaBreakdown& in, pb::TmaBreakdown& out)
{
    out.set_valid(in.valid);
    out.set_note(in.note);
    out.set_slots(in.slots);
    out.set_multiplex_scale(in.multiplexScale);
    for (double v : { in.level1.retiring, in.level1.badSpeculation, in.level1.frontendBound, in.level1.backendBound })
        out.add_level1(v);
    out.set_level2_present(in.level2.present);
    const auto& l2 = in.level2;
    for (double v : { l2.heavyOperations, l2.lightOperations, l2.branchMispredicts, l2.machineClears, l2.fetchLatency,
             l2.fetchBandwidth, l2.memoryBound, l2.coreBound })
        out.add_level2(v);
}

pmu::TmaBreakdown fromWire(const pb::TmaBreakdown& in)
{
    pmu::TmaBreakdown b;
    b.valid = in.valid();
    b.note = in.note();
    b.slots = in.slots();
    b.multiplexScale = in.multiplex_scale();
    const auto at = [](const auto& list, int i) { return i < list.size() ? list.Get(i) : 0.0; };
    b.level1 = { at(in.level1(), 0), at(in.level1(), 1), at(in.level1(), 2), at(in.level1(), 3) };
    auto& l2 = b.level2;
    l2.present = in.level2_present();
    l2.heavyOperations = at(in.level2(), 0);
    l2.lightOperations = at(in.level2(), 1);
    l2.branchMispredicts = at(in.level2(), 2);
    l2.machineClears = at(in.level2(), 3);
    l2.fetchLatency = at(in.level2(), 4);
    l2.fetchBandwidth = at(in.level2(), 5);
    l2.memoryBound = at(in.level2(), 6);
    l2.coreBound = at(in.level2(), 7);
    return b;
}

void toWire(const pmu::FunctionNode& in, pb::FunctionNode& out)
{
    out.set_name(in.name);
    out.set_module(in.module);
    out.set_self(in.self);
    out.set_inclusive(in.inclusive);
}

pmu::FunctionNode fromWire(const pb::FunctionNode& in)
{
    return { in.name(), in.module(), in.self(), in.inclusive() };
}

void toWire(const pmu::LatencyStats& in, pb::LatencyStats& out)
{
    out.set_count(in.count);
    out.set_sum(in.sum);
    out.set_hitm(in.hitm);
    out.set_remote(in.remote);
    out.set_max(in.max);
    for (auto r : in.reservoir)
        out.add_reservoir(r);
    out.set_seen(in.seen);
    for (auto n : in.byLevel)
        out.add_by_level(n);
}

pmu::LatencyStats fromWire(const pb::LatencyStats& in)
{
    pmu::LatencyStats s;
    s.count = in.count();
    s.sum = in.sum();
    s.hitm = in.hitm();
    s.remote = in.remote();
    s.max = in.max();
    s.reservoir.assign(in.reservoir().begin(), in.reservoir().end());
    s.seen = in.seen();
    for (int i = 0; i < in.by_level_size() && static_cast<std::size_t>(i) < s.byLevel.size(); ++i)
        s.byLevel[static_cast<std::size_t>(i)] = in.by_level(i);
    return s;
}

void toWire(const pmu::LatencyRow& in, pb::LatencyRow& out)
{
    out.set_key(in.key);
    out.set_module(in.module);
    out.set_function(in.function);
    toWire(in.stats, *out.mutable_stats());
}

pmu::LatencyRow fromWire(const pb::LatencyRow& in)
{
    return { in.key(), in.module(), in.function(), fromWire(in.stats()) };
}

/// RingStats in declaration order (PmuPartStats.ring).
std::vector<std::uint64_t*> ringFields(pmu::RingStats& s)
{
    return { &s.records, &s.bytes, &s.samples, &s.straddled, &s.lostRecords, &s.lostEvents, &s.lostSamples,
        &s.throttles, &s.unthrottles, &s.overruns, &s.overrunBytes, &s.corrupt };
}

} // namespace

void toWire(const engine::PmuRequest& in, pb::StartPmu& out)
{
    out.set_kind(static_cast<pb::PmuCaptureKind>(in.kind)); // the enums list the kinds in the same order
    out.set_simulated(in.simulated);
    for (auto p : in.pids)
        out.add_pids(p);
    out.set_system_wide(in.systemWide);
    for (const auto& a : in.command)
        out.add_command(a);
    out.set_ldlat(in.ldlat);
    out.set_kernel(in.kernel);
    out.set_keep_samples(in.keepSamples);
    out.set_memory_scale(in.memoryScale);
    out.set_machine(in.machine);
    out.set_sim_pmu(in.simPmu);
    out.set_sim_cycles_per_pump(in.simCyclesPerPump);
    out.set_sim_ghz(in.simGhz);
    out.set_program(in.program);
    out.set_cat_group(in.catGroup);
}

Result<engine::PmuRequest> fromWire(const pb::StartPmu& in)
{
    const int kind = in.kind();
    if (kind < static_cast<int>(pb::PMU_TMA) || kind > static_cast<int>(pb::PMU_ALL))
        return errnoError(EINVAL, "unknown PMU capture kind " + std::to_string(kind),
            "install the same rdtscope release on both machines");
    engine::PmuRequest r;
    r.kind = static_cast<engine::PmuCaptureKind>(in.kind());
    r.simulated = in.simulated();
    r.pids.assign(in.pids().begin(), in.pids().end());
    r.systemWide = in.system_wide();
    r.command.assign(in.command().begin(), in.command().end());
    r.ldlat = in.ldlat();
    r.kernel = in.kernel();
    r.keepSamples = in.keep_samples();
    r.memoryScale = in.memory_scale();
    r.machine = in.machine();
    r.simPmu = in.sim_pmu();
    // 0 is what a client that does not know the field sends: the engine's defaults. The engine checks the ranges.
    if (in.sim_cycles_per_pump() != 0) r.simCyclesPerPump = in.sim_cycles_per_pump();
    if (in.sim_ghz() != 0) r.simGhz = in.sim_ghz();
    r.program = in.program(); // the engine checks both: a program it knows, a group it has
    r.catGroup = in.cat_group();
    return r;
}

void toWire(const engine::PmuStarted& in, pb::PmuStarted& out)
{
    out.set_failure(static_cast<pb::PmuStarted::Failure>(in.failure));
    const auto& i = in.info;
    out.set_id(i.id);
    out.set_simulated(i.simulated);
    out.set_pmus_used(i.pmusUsed);
    out.set_caches(i.caches);
    for (const auto& p : i.parts) {
        auto* w = out.add_parts();
        w->set_pmu_name(p.pmuName);
        w->set_pmu_label(p.pmuLabel);
        w->set_description(p.description);
        w->set_level_two_tma(p.levelTwoTma);
        w->set_counting(p.counting);
    }
    for (const auto& n : i.notes)
        out.add_notes(n);
    out.set_lbr_depth(i.lbrDepth);
}

namespace {
engine::PmuCaptureInfo infoOf(const pb::PmuStarted& w)
{
    engine::PmuCaptureInfo i;
    i.id = w.id();
    i.simulated = w.simulated();
    i.pmusUsed = w.pmus_used();
    i.caches = w.caches();
    for (const auto& p : w.parts())
        i.parts.push_back({ p.pmu_name(), p.pmu_label(), p.description(), p.level_two_tma(), p.counting() });
    i.notes.assign(w.notes().begin(), w.notes().end());
    i.lbrDepth = w.lbr_depth();
    return i;
}
} // namespace

engine::PmuStarted startedOf(const pb::Response& in)
{
    engine::PmuStarted s;
    s.result = resultOf(in);
    const auto& w = in.pmu_started();
    const int f = w.failure();
    s.failure = f >= static_cast<int>(pb::PmuStarted::NONE) && f <= static_cast<int>(pb::PmuStarted::BAD_REQUEST)
        ? static_cast<engine::PmuFailure>(f)
        : engine::PmuFailure::Start;
    if (!s.result.ok && s.failure == engine::PmuFailure::None) s.failure = engine::PmuFailure::Start;
    if (s.result.ok && !in.has_pmu_started()) {
        s.result = engine::CommandResult::failure(malformed("PmuStarted"));
        s.failure = engine::PmuFailure::Start;
        return s;
    }
    s.info = infoOf(w);
    if (s.result.ok && s.info.parts.empty()) { // every started capture has a part; the front ends index parts[0]
        s.result = engine::CommandResult::failure(malformed("PmuStarted (no parts)"));
        s.failure = engine::PmuFailure::Start;
    }
    return s;
}

void toWire(const engine::PmuCaptureStarted& in, pb::PmuCaptureStarted& out)
{
    out.set_time_ns(in.timeNs);
    toWire(engine::PmuStarted { engine::CommandResult::success(), engine::PmuFailure::None, in.info },
        *out.mutable_started());
    engine::PmuRequest request = in.request;
    request.command.clear(); // another front end's command line is none of this client's business
    toWire(request, *out.mutable_request());
}

Result<engine::PmuCaptureStarted> fromWire(const pb::PmuCaptureStarted& in)
{
    auto request = fromWire(in.request());
    if (!request) return request.error();
    engine::PmuCaptureStarted out { in.time_ns(), infoOf(in.started()), std::move(*request) };
    if (out.info.parts.empty()) return malformed("PmuCaptureStarted (no parts)");
    return out;
}

void toWire(const engine::PmuBatch& in, pb::PmuBatch& out)
{
    out.set_capture_id(in.captureId);
    out.set_seconds(in.seconds);
    out.set_samples(in.samples);
    out.set_new_samples(in.newSamples);
    for (const auto& r : in.tma) {
        auto* w = out.add_tma();
        w->set_part(r.part);
        w->set_seconds(r.seconds);
        toWire(r.breakdown, *w->mutable_breakdown());
        w->set_time_ns(r.timeNs);
    }
    out.set_finished(in.finished);
    for (const auto& s : in.decoded) {
        auto* w = out.add_decoded();
        w->set_time_ns(s.timeNs);
        w->set_pid(s.pid);
        w->set_ip(s.ip);
        w->set_has_branch_stack(s.hasBranchStack);
        for (const auto& b : s.branches) {
            auto* e = w->add_branches();
            e->set_from(b.from);
            e->set_to(b.to);
            e->set_flags(b.flags);
        }
        w->set_load_latency(s.loadLatency);
        w->set_addr(s.addr);
        w->set_data_src(s.dataSrc);
        w->set_latency(s.latency);
        w->set_tid(s.tid);
        if (s.cpu != pmu::kUnknownCpu) w->set_cpu(s.cpu);
        for (auto ip : s.callchain)
            w->add_callchain(ip);
        w->set_user_stack(s.userStack);
    }
    for (const auto& n : in.names) {
        auto* w = out.add_names();
        w->set_pid(n.pid);
        w->set_addr(n.addr);
        w->set_function(n.symbol.function);
        w->set_module(n.symbol.module);
        w->set_offset(n.symbol.offset);
        w->set_source_file(n.symbol.sourceFile);
        w->set_line(n.symbol.line);
        w->set_resolved(n.symbol.resolved);
    }
    out.set_lost(in.lost);
}

engine::PmuBatch fromWire(const pb::PmuBatch& in)
{
    engine::PmuBatch b;
    b.captureId = in.capture_id();
    b.seconds = in.seconds();
    b.samples = in.samples();
    b.newSamples = in.new_samples();
    for (const auto& r : in.tma())
        b.tma.push_back({ r.part(), r.seconds(), fromWire(r.breakdown()), r.time_ns() });
    b.finished = in.finished();
    b.decoded.reserve(static_cast<std::size_t>(in.decoded_size()));
    for (const auto& w : in.decoded()) {
        engine::PmuSampleRecord s;
        s.timeNs = w.time_ns();
        s.pid = w.pid();
        s.ip = w.ip();
        s.hasBranchStack = w.has_branch_stack();
        for (const auto& e : w.branches())
            s.branches.push_back({ e.from(), e.to(), e.flags() });
        s.loadLatency = w.load_latency();
        s.addr = w.addr();
        s.dataSrc = w.data_src();
        s.latency = w.latency();
        s.tid = w.tid();
        s.cpu = w.has_cpu() ? w.cpu() : pmu::kUnknownCpu; // an older agent sends none: unknown, not CPU 0
        s.callchain.assign(w.callchain().begin(), w.callchain().end());
        s.userStack = w.user_stack();
        b.decoded.push_back(std::move(s));
    }
    for (const auto& w : in.names()) {
        pmu::SymbolInfo si { w.function(), w.module(), w.offset(), w.source_file(), w.line(), w.resolved() };
        b.names.push_back({ w.pid(), w.addr(), std::move(si) });
    }
    b.lost = in.lost();
    return b;
}

void toWire(const engine::PmuReport& in, pb::PmuReport& out)
{
    if (in.branches) {
        auto* g = out.mutable_branches();
        for (const auto& f : in.branches->functions)
            toWire(f, *g->add_functions());
        for (const auto& e : in.branches->edges) {
            auto* w = g->add_edges();
            w->set_from(e.from);
            w->set_to(e.to);
            w->set_call(e.call());
            w->set_ret(e.ret());
            w->set_kind(static_cast<std::uint32_t>(e.kind) + 1);
            w->set_kind_from(static_cast<std::uint32_t>(e.kindFrom));
            w->set_count(e.stats.count);
            w->set_mispredicts(e.stats.mispredicts);
            w->set_cycles(e.stats.cycles);
            w->set_cycle_samples(e.stats.cycleSamples);
            w->set_type(e.stats.type);
        }
        g->set_samples(in.branches->samples);
        g->set_branches(in.branches->branches);
        g->set_empty_stacks(in.branches->emptyStacks);
        g->set_kernel_only_stacks(in.branches->kernelOnlyStacks);
    }
    if (in.loads) {
        auto* l = out.mutable_loads();
        for (const auto& bucket : in.loads->histogram)
            for (auto n : bucket)
                l->add_histogram(n);
        l->set_levels(static_cast<std::uint32_t>(in.loads->histogram[0].size()));
        for (const auto& r : in.loads->functions)
            toWire(r, *l->add_functions());
        for (const auto& r : in.loads->lines)
            toWire(r, *l->add_lines());
        toWire(in.loads->total, *l->mutable_total());
    }
    for (const auto& t : in.tmaTotals)
        toWire(t, *out.add_tma_totals());
    for (const auto& f : in.hotFunctions)
        toWire(f, *out.add_hot_functions());
    for (const auto& p : in.parts) {
        auto* w = out.add_parts();
        w->set_pmu_label(p.pmuLabel);
        auto ring = p.ring;
        for (auto* v : ringFields(ring))
            w->add_ring(*v);
        w->set_decode_errors(p.decodeErrors);
    }
    out.set_simulated_cpu_ms(in.simulatedCpuMs);
}

Result<engine::PmuReport> fromWire(const pb::PmuReport& in)
{
    engine::PmuReport r;
    if (in.has_branches()) {
        const auto& g = in.branches();
        pmu::BranchGraphReport b;
        for (const auto& f : g.functions())
            b.functions.push_back(fromWire(f));
        for (const auto& w : g.edges()) {
            pmu::FunctionEdge e;
            e.from = w.from();
            e.to = w.to();
            if (w.kind() > 0 && w.kind() <= pmu::kEdgeKinds) {
                e.kind = static_cast<pmu::EdgeKind>(w.kind() - 1);
                e.kindFrom = w.kind_from() <= static_cast<std::uint32_t>(pmu::EdgeKindFrom::CallStack)
                    ? static_cast<pmu::EdgeKindFrom>(w.kind_from())
                    : pmu::EdgeKindFrom::None;
            } else { // an older agent: only its call / return words
                e.kind = w.call() ? pmu::EdgeKind::Call : (w.ret() ? pmu::EdgeKind::Return : pmu::EdgeKind::Unknown);
            }
            e.stats.count = w.count();
            e.stats.mispredicts = w.mispredicts();
            e.stats.cycles = w.cycles();
            e.stats.cycleSamples = w.cycle_samples();
            e.stats.type = static_cast<std::uint8_t>(w.type() & 0xffu);
            b.edges.push_back(std::move(e));
        }
        b.samples = g.samples();
        b.branches = g.branches();
        b.emptyStacks = g.empty_stacks();
        b.kernelOnlyStacks = g.kernel_only_stacks();
        r.branches = std::move(b);
    }
    if (in.has_loads()) {
        const auto& l = in.loads();
        pmu::LoadLatencyReport out;
        const std::size_t levels = out.histogram[0].size();
        if (l.levels() != levels || static_cast<std::size_t>(l.histogram_size()) != levels * out.histogram.size())
            return malformed("load-latency histogram");
        for (std::size_t i = 0; i < out.histogram.size(); ++i)
            for (std::size_t j = 0; j < levels; ++j)
                out.histogram[i][j] = l.histogram(static_cast<int>(i * levels + j));
        for (const auto& w : l.functions())
            out.functions.push_back(fromWire(w));
        for (const auto& w : l.lines())
            out.lines.push_back(fromWire(w));
        out.total = fromWire(l.total());
        r.loads = std::move(out);
    }
    for (const auto& t : in.tma_totals())
        r.tmaTotals.push_back(fromWire(t));
    for (const auto& f : in.hot_functions())
        r.hotFunctions.push_back(fromWire(f));
    for (const auto& w : in.parts()) {
        engine::PmuPartStats p;
        p.pmuLabel = w.pmu_label();
        auto fields = ringFields(p.ring);
        for (int i = 0; i < w.ring_size() && static_cast<std::size_t>(i) < fields.size(); ++i)
            *fields[static_cast<std::size_t>(i)] = w.ring(i);
        p.decodeErrors = w.decode_errors();
        r.parts.push_back(std::move(p));
    }
    r.simulatedCpuMs = in.simulated_cpu_ms();
    return r;
}

} // namespace rdt::remote

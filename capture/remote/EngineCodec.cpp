// SPDX-License-Identifier: GPL-3.0-or-later
#include "EngineCodec.h"

#include "PmuCodec.h"
#include "protocol/RdtCodec.h"

#include <cerrno>

namespace rdt::remote {

void toWire(const engine::SourceDescription& in, pb::SourceDescription& out)
{
    out.set_kind(in.kind);
    out.set_backend(in.backend);
    out.set_why(in.why);
    out.set_simulated(in.simulated);
    out.set_simulation(in.simulation);
    out.set_scenario(in.scenario);
    for (const auto& w : in.warnings)
        out.add_warnings(w);
    out.set_read_only(!in.writability.writable);
    out.set_read_only_reason(in.writability.reason);
    out.set_read_only_fix(in.writability.fix);
}

engine::SourceDescription fromWire(const pb::SourceDescription& in)
{
    engine::SourceDescription d;
    d.kind = in.kind();
    d.backend = in.backend();
    d.why = in.why();
    d.simulated = in.simulated();
    d.simulation = in.simulation();
    d.scenario = in.scenario();
    d.warnings.assign(in.warnings().begin(), in.warnings().end());
    d.writability = { !in.read_only(), in.read_only_reason(), in.read_only_fix() };
    return d;
}

void toWire(const engine::GroupsSnapshot& in, pb::GroupsSnapshot& out)
{
    out.set_time_ns(in.timeNs);
    for (const auto& g : in.groups) {
        auto* w = out.add_groups();
        protocol::toWire(g.info, *w->mutable_info());
        if (g.info.isControl) w->set_schemata(g.schemata.format());
        w->set_schemata_error(g.schemataError);
        for (unsigned c : g.cpus)
            w->add_cpus(c);
        w->set_cpus_known(g.cpusKnown);
        if (g.taskCount) w->set_task_count(*g.taskCount);
        for (unsigned t : g.tasks)
            w->add_tasks(t);
    }
}

engine::GroupsSnapshot fromWire(const pb::GroupsSnapshot& in)
{
    engine::GroupsSnapshot s;
    s.timeNs = in.time_ns();
    for (const auto& w : in.groups()) {
        engine::GroupState g;
        g.info = protocol::fromWire(w.info());
        if (!w.schemata().empty()) {
            auto parsed = Schemata::parse(w.schemata());
            if (!parsed) {
                s.result = engine::CommandResult::failure(makeError("the agent sent an unreadable schemata for group '"
                    + g.info.path + "': " + parsed.error().message));
                s.groups.clear();
                return s;
            }
            g.schemata = std::move(*parsed);
        }
        g.schemataError = w.schemata_error();
        g.cpus.assign(w.cpus().begin(), w.cpus().end());
        g.cpusKnown = w.cpus_known();
        if (w.has_task_count()) g.taskCount = static_cast<std::size_t>(w.task_count());
        g.tasks.assign(w.tasks().begin(), w.tasks().end());
        s.groups.push_back(std::move(g));
    }
    return s;
}

void toWire(const engine::AllocationResult& in, pb::AllocationApplied& out)
{
    out.set_applied(in.applied.format());
    out.set_rolled_back(in.rolledBack);
    for (const auto& c : in.changes)
        protocol::toWire(c, *out.add_changes());
    for (const auto& s : in.steps)
        out.add_steps(s);
}

void toWire(const engine::CommandResult& in, pb::Response& out)
{
    for (const auto& n : in.notes)
        out.add_notes(n);
    if (in.ok) return;
    auto* e = out.mutable_error();
    e->set_code(in.code);
    e->set_message(in.reason);
    e->set_advice(in.advice);
}

engine::CommandResult resultOf(const pb::Response& in)
{
    std::vector<std::string> notes(in.notes().begin(), in.notes().end());
    if (!in.has_error()) return engine::CommandResult::success(std::move(notes));
    auto r = engine::CommandResult::failure({ in.error().code(), in.error().message(), in.error().advice() });
    r.notes = std::move(notes);
    return r;
}

engine::AllocationResult allocationOf(const pb::Response& in)
{
    engine::AllocationResult a;
    a.result = resultOf(in);
    if (!in.has_allocation_applied()) return a;
    const auto& w = in.allocation_applied();
    if (auto s = Schemata::parse(w.applied())) a.applied = std::move(*s);
    a.rolledBack = w.rolled_back();
    for (const auto& c : w.changes())
        a.changes.push_back(protocol::fromWire(c));
    a.steps.assign(w.steps().begin(), w.steps().end());
    return a;
}

void toWire(const engine::GroupPmuCounts& in, pb::GroupPmuCounts& out)
{
    out.set_simulated(in.simulated);
    out.set_tasks(in.tasks);
    out.set_cycles(in.cycles);
    out.set_instructions(in.instructions);
    out.set_llc_misses(in.llcMisses);
    if (in.memoryStallCycles) out.set_memory_stall_cycles(*in.memoryStallCycles);
    out.set_method(in.method);
}

engine::GroupPmuCounts fromWire(const pb::GroupPmuCounts& in)
{
    engine::GroupPmuCounts out;
    out.simulated = in.simulated();
    out.tasks = static_cast<std::size_t>(in.tasks());
    out.cycles = in.cycles();
    out.instructions = in.instructions();
    out.llcMisses = in.llc_misses();
    if (in.has_memory_stall_cycles()) out.memoryStallCycles = in.memory_stall_cycles();
    out.method = in.method();
    return out;
}

bool toWire(const engine::EngineEvent& in, pb::Event& out)
{
    if (const auto* c = std::get_if<AllocationChanged>(&in)) {
        protocol::toWire(*c, *out.mutable_allocation_changed());
        return true;
    }
    if (const auto* s = std::get_if<SimulationEvent>(&in)) {
        protocol::toWire(*s, *out.mutable_simulation());
        return true;
    }
    if (const auto* p = std::get_if<engine::PmuCaptureStarted>(&in)) {
        toWire(*p, *out.mutable_pmu_capture_started());
        return true;
    }
    if (const auto* w = std::get_if<engine::EngineWarning>(&in)) {
        auto* n = out.mutable_notice();
        n->set_level(pb::Notice::WARNING);
        n->set_text(w->text);
        n->set_time_ns(w->timeNs);
        return true;
    }
    if (const auto* e = std::get_if<engine::EngineError>(&in)) {
        auto* n = out.mutable_notice();
        n->set_level(pb::Notice::ERROR);
        n->set_text(e->reason);
        n->set_advice(e->advice);
        n->set_where(e->where);
        n->set_time_ns(e->timeNs);
        return true;
    }
    return false;
}

std::optional<engine::EngineEvent> fromWire(const pb::Event& in)
{
    switch (in.kind_case()) {
    case pb::Event::kAllocationChanged:
        return engine::EngineEvent(protocol::fromWire(in.allocation_changed()));
    case pb::Event::kSimulation:
        return engine::EngineEvent(protocol::fromWire(in.simulation()));
    case pb::Event::kPmuCaptureStarted: {
        auto started = fromWire(in.pmu_capture_started());
        if (!started) return std::nullopt; // a malformed announcement is dropped, as an unknown event kind is
        return engine::EngineEvent(std::move(*started));
    }
    case pb::Event::kNotice: {
        const auto& n = in.notice();
        if (n.level() == pb::Notice::ERROR)
            return engine::EngineEvent(engine::EngineError { n.time_ns(), n.where(), n.text(), n.advice() });
        return engine::EngineEvent(engine::EngineWarning { n.time_ns(), n.text() });
    }
    default:
        return std::nullopt;
    }
}

} // namespace rdt::remote

// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuSimRun.h"

#include "pmu/RingReader.h"

namespace rdt::pmu {

Result<PmuSimRun> PmuSimRun::create(const PmuSimOptions& options)
{
    PmuSimRun run;
    std::vector<SimCapture> kinds;
    if (options.tma) kinds.push_back(SimCapture::Tma);
    if (options.lbr)
        kinds.push_back(options.lbrMode == LbrMode::CallStack ? SimCapture::LbrCallStack : SimCapture::LbrAny);
    if (options.loadLatency) kinds.push_back(SimCapture::LoadLatency);
    if (kinds.empty()) return makeError("no simulated capture selected", "choose TMA, LBR or load latency");
    for (SimCapture kind : kinds) {
        SimPmuConfig cfg;
        cfg.capture = kind;
        cfg.memoryScale = options.memoryScale;
        cfg.model = options.model;
        if (options.ghz > 0) cfg.ghz = options.ghz;
        cfg.seed = options.seed;
        cfg.ringBytes = 4u << 20; // one slice's samples fit, so nothing is dropped between drains
        auto sim = SimPmu::create(cfg);
        if (!sim) return sim.error();
        run.m_ghz = cfg.ghz;
        run.m_model = cfg.model;
        Capture c { std::move(sim.value()), RecordDecoder {}, {} };
        c.sim.addEventsTo(c.decoder);
        if (kind == SimCapture::Tma) c.lastRead = c.sim.readGroup();
        run.m_captures.push_back(std::move(c));
    }
    return run;
}

PmuData PmuSimRun::makeData() const
{
    PmuData data;
    data.kind = PmuSourceKind::Simulated;
    data.name = m_model.label + "-class PMU running a synthetic program (SimPmu)";
    data.notes.push_back("simulated: a synthetic call-tree program on a modelled cache hierarchy (SimPmu), "
                         "not measurements of this machine");
    if (!m_captures.empty()) m_captures.front().sim.registerSymbols(*data.symbols);
    return data;
}

void PmuSimRun::step(PmuData& data, std::uint64_t cycles)
{
    m_cycles += static_cast<double>(cycles);
    for (auto& c : m_captures) {
        c.sim.run(cycles);
        if (c.sim.config().capture == SimCapture::Tma) {
            const auto fmt = c.sim.recipe().events[0].attr.readFormat;
            auto now = c.sim.readGroup();
            auto a = parseReadFormat(now, fmt);
            auto b = parseReadFormat(c.lastRead, fmt);
            // The sample clock of SimPmu (SimPmu.cpp kTimeBase: simulated time starts at 1 s), so TMA intervals and
            // samples share one time axis.
            const auto nowNs = 1'000'000'000ull + static_cast<std::uint64_t>(c.sim.truth().cycles / m_ghz);
            if (a && b)
                data.tma.push_back(PmuTmaPoint { nowNs, tmaFromGroupRead(c.sim.recipe(), deltaRead(*a, *b)), 0 });
            c.lastRead = std::move(now);
            continue;
        }
        auto& ring = c.sim.ring();
        auto view = RingReader::viewOfMapping(ring.base(), ring.mapSize(), ring.pageSize());
        if (!view) continue;
        auto reader = RingReader::create(*view);
        if (!reader) continue;
        reader->drainDecoded(c.decoder, m_scratch, [&](const DecodedRecord& r) {
            if (r.kind == RecordKind::Sample)
                addSample(data, r.sample, r.attr);
            else if (r.kind == RecordKind::Lost)
                data.lost += r.lost.lost;
        });
    }
}

} // namespace rdt::pmu

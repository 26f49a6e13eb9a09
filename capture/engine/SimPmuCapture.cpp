// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated PMU as a capture of the service: SimPmu runs rdtscope's synthetic request server and writes
// perf records into an in-memory ring, which is read exactly as a real one (RingReader + RecordDecoder).
#include "PmuCapture.h"

#include "pmu/RingReader.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"
#include "simpmu/SimMachineMemory.h"
#include "simpmu/SimPmu.h"
#include "simpmu/SimPmuModel.h"

#include <cerrno>
#include <optional>

namespace rdt::engine {

namespace {

class SimPmuCapture final : public PmuCapture {
public:
    SimPmuCapture(const PmuRequest& request, pmu::SimPmuConfig config)
        : PmuCapture(request)
        , m_config(config)
    { }

    Status open(std::uint32_t id)
    {
        std::unique_ptr<pmu::SimMemoryModel> memory;
        if (!m_request.machine.empty()) { // the simulated machine's caches instead of the PMU's own small hierarchy
            auto cpuid = sim::presetCpuid(m_request.machine);
            auto m = cpuid ? sim::SimMachine::create(*cpuid) : Result<std::unique_ptr<sim::SimMachine>>(cpuid.error());
            if (!m) {
                m_badMachine = true;
                return m.error();
            }
            m_machine = std::move(*m);
            memory = std::make_unique<pmu::SimMachineMemory>(*m_machine, std::vector<unsigned> { 0, 1 });
            // The machine's CPU decides the PMU's generation: a Skylake-SP preset counts TMA the pre-Ice Lake way.
            auto table = m_machine->cpuid().table();
            m_config.model = pmu::simulatedPmuModel(decodeCpuFeatures(table));
        }
        auto created = pmu::SimPmu::create(m_config, std::move(memory));
        if (!created) return created.error();
        m_sim.emplace(std::move(*created));
        m_sim->addEventsTo(m_decoder);
        m_sim->registerSymbols(m_symbols);
        auto view
            = pmu::RingReader::viewOfMapping(m_sim->ring().base(), m_sim->ring().mapSize(), m_sim->ring().pageSize());
        auto reader = view ? pmu::RingReader::create(*view) : Result<pmu::RingReader>(view.error());
        if (!reader) return reader.error();
        m_reader.emplace(std::move(*reader));
        m_info.id = id;
        m_info.simulated = true;
        m_info.caches
            = m_request.machine.empty() ? "the PMU's own L1/L2/L3 model" : "simulated machine " + m_request.machine;
        m_info.pmusUsed = "simulated " + m_config.model.label + "-class core";
        m_info.parts.push_back({ "", "", m_sim->recipe().description,
            m_sim->recipe().tma == pmu::TmaModel::SapphireRapids, m_request.kind == PmuCaptureKind::Tma });
        m_readFormat = m_sim->recipe().events[0].attr.readFormat;
        if (m_request.kind == PmuCaptureKind::Tma) {
            m_intervals.resize(1);
            if (auto first = pmu::parseReadFormat(m_sim->readGroup(), m_readFormat)) m_intervals[0].start(*first);
        }
        return {};
    }

    PmuBatch pump() override
    {
        // One slice of simulated execution; the ring is drained after each slice so it never overflows.
        m_sim->run(1'000'000);
        m_reader->drainDecoded(m_decoder, m_scratch, [this](const pmu::DecodedRecord& r) { consume(r); });
        return batch();
    }

    Result<PmuBatch> readCounters() override
    {
        PmuBatch b = batch();
        if (m_request.kind != PmuCaptureKind::Tma) return b;
        auto now = pmu::parseReadFormat(m_sim->readGroup(), m_readFormat);
        if (!now) return now.error();
        const auto& recipe = m_sim->recipe();
        const auto& iv = m_intervals[0].add(static_cast<std::uint64_t>(b.seconds * 1e9), *now,
            [&](const pmu::ReadData& d) { return pmu::tmaFromGroupRead(recipe, d); });
        // The simulated PMU's sample clock (SimPmu.cpp kTimeBase: simulated time starts at 1 s).
        const auto simNs = 1'000'000'000ull + static_cast<std::uint64_t>(m_sim->truth().cycles / m_config.ghz);
        b.tma.push_back({ 0, b.seconds, iv.breakdown, simNs });
        return b;
    }

    void stop() override { }

protected:
    void fillReport(PmuReport& r) override
    {
        r.parts.push_back({ "", m_reader->stats(), m_reader->decodeErrors() });
        r.simulatedCpuMs = m_sim->truth().cycles / m_config.ghz / 1e6;
    }

private:
    pmu::SimPmuConfig m_config;
    std::unique_ptr<sim::SimMachine> m_machine;
    std::optional<pmu::SimPmu> m_sim;
    std::optional<pmu::RingReader> m_reader;
    pmu::RecordDecoder m_decoder;
    pmu::DecodedRecord m_scratch;
    std::uint64_t m_readFormat = 0;

public:
    bool m_badMachine = false; ///< the request named a machine preset that does not exist
};

} // namespace

std::unique_ptr<PmuCapture> startSimPmuCapture(std::uint32_t id, const PmuRequest& request, PmuStarted& out)
{
    pmu::SimPmuConfig cfg;
    if (request.kind == PmuCaptureKind::All) { // unfinished: one SimPmu per recipe, as the GUI's PmuSimRun runs
        out.failure = PmuFailure::BadRequest;
        out.result = CommandResult::failure(errnoError(EINVAL, "the simulated PMU runs one recipe per capture",
            "start tma, lbr and mem as separate simulated captures"));
        return nullptr;
    }
    if (request.kind == PmuCaptureKind::CpuClock) {
        out.failure = PmuFailure::BadRequest;
        out.result = CommandResult::failure(errnoError(EINVAL, "the simulated PMU has no cpu-clock capture",
            "use tma, lbr or mem on the simulated PMU, or cpu-clock with perf"));
        return nullptr;
    }
    cfg.capture = request.kind == PmuCaptureKind::Tma  ? pmu::SimCapture::Tma
        : request.kind == PmuCaptureKind::LoadLatency  ? pmu::SimCapture::LoadLatency
        : request.kind == PmuCaptureKind::LbrCallStack ? pmu::SimCapture::LbrCallStack
                                                       : pmu::SimCapture::LbrAny;
    cfg.ldlat = request.ldlat;
    cfg.memoryScale = request.memoryScale;
    cfg.program = request.program;
    auto capture = std::make_unique<SimPmuCapture>(request, cfg);
    if (auto st = capture->open(id); !st) {
        out.failure = capture->m_badMachine ? PmuFailure::BadRequest : PmuFailure::Start;
        out.result = CommandResult::failure(st.error());
        return nullptr;
    }
    out.info = capture->info();
    out.result = CommandResult::success();
    return capture;
}

} // namespace rdt::engine

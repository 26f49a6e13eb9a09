// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated PMU as a capture of the service: one SimPmu per recipe (All: TMA, LBR call stacks and load latency,
// each a simulated core running the same synthetic request server), each writing perf records into its own
// in-memory ring, which is read exactly as a real one (RingReader + RecordDecoder).
#include "PmuCapture.h"

#include "pmu/RingReader.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"
#include "simpmu/SimMachineMemory.h"
#include "simpmu/SimPmu.h"
#include "simpmu/SimPmuModel.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <optional>

namespace rdt::engine {

namespace {

/// A pump runs its cycles in slices of at most this many and drains the rings after each, so a ring never
/// overflows however many cycles a client asks for.
constexpr std::uint64_t kSliceCycles = 1'000'000;
/// The simulated CPUs the program's threads run on (SimMachineMemory: core 0 is the program thread), and the class
/// of service they run in on the capture's machine.
constexpr std::array<unsigned, 2> kProgramCpus { 0, 1 };
constexpr std::uint32_t kProgramClos = 1;
/// The most one pump may run: about a second of the simulator, during which the engine answers nothing else.
constexpr std::uint64_t kMaxCyclesPerPump = 100'000'000;

std::vector<pmu::SimCapture> simCaptures(PmuCaptureKind kind)
{
    switch (kind) {
    case PmuCaptureKind::Tma:
        return { pmu::SimCapture::Tma };
    case PmuCaptureKind::LoadLatency:
        return { pmu::SimCapture::LoadLatency };
    case PmuCaptureKind::LbrCallStack:
        return { pmu::SimCapture::LbrCallStack };
    case PmuCaptureKind::LbrAny:
        return { pmu::SimCapture::LbrAny };
    case PmuCaptureKind::All:
        return { pmu::SimCapture::Tma, pmu::SimCapture::LbrCallStack, pmu::SimCapture::LoadLatency };
    case PmuCaptureKind::CpuClock:
        break;
    }
    return {};
}

class SimPmuCapture final : public PmuCapture {
public:
    SimPmuCapture(const PmuRequest& request, const CpuidTable* engineCpu)
        : PmuCapture(request)
    {
        // A program in a group with no machine named runs on the engine's own simulated machine's caches.
        if (engineCpu && request.machine.empty() && !request.catGroup.empty()) m_engineCpu = *engineCpu;
    }

    /// The CPU whose caches serve the program's loads: the named preset, the engine's machine, or none.
    Result<sim::SimCpuid> machineCpuid() const
    {
        if (!m_request.machine.empty()) return sim::presetCpuid(m_request.machine);
        return sim::SimCpuid::fromTable(*m_engineCpu);
    }

    Status open(std::uint32_t id, pmu::SimPmuConfig config)
    {
        const bool onMachine = !m_request.machine.empty() || m_engineCpu;
        for (pmu::SimCapture kind : simCaptures(m_request.kind)) {
            auto part = std::make_unique<Part>();
            std::unique_ptr<pmu::SimMemoryModel> memory;
            if (onMachine) { // the simulated machine's caches instead of the PMU's own hierarchy
                auto cpuid = machineCpuid();
                auto m
                    = cpuid ? sim::SimMachine::create(*cpuid) : Result<std::unique_ptr<sim::SimMachine>>(cpuid.error());
                if (!m) {
                    m_badMachine = true;
                    return m.error();
                }
                part->machine = std::move(*m); // one machine per part: each recipe sees the caches a lone one would
                // The program runs in a class of service of its own (PmuRequest::catGroup), so setL3Mask() is the
                // group's mask; IA32_PQR_ASSOC.COS of its CPUs, SDM 20.19.7. Every way until a mask is set.
                for (unsigned cpu : kProgramCpus)
                    part->machine->setPqr(cpu, { kProgramClos, 0 });
                memory = std::make_unique<pmu::SimMachineMemory>(
                    *part->machine, std::vector<unsigned>(kProgramCpus.begin(), kProgramCpus.end()));
                // The machine's CPU decides the PMU's generation: a Skylake-SP preset counts TMA the pre-Ice Lake
                // way (unless the request names the PMU).
                if (m_request.simPmu.empty()) {
                    auto table = part->machine->cpuid().table();
                    config.model = pmu::simulatedPmuModel(decodeCpuFeatures(table));
                }
            }
            config.capture = kind;
            auto created = pmu::SimPmu::create(config, std::move(memory));
            if (!created) return created.error();
            part->sim.emplace(std::move(*created));
            part->sim->addEventsTo(part->decoder);
            auto& ring = part->sim->ring();
            auto view = pmu::RingReader::viewOfMapping(ring.base(), ring.mapSize(), ring.pageSize());
            auto reader = view ? pmu::RingReader::create(*view) : Result<pmu::RingReader>(view.error());
            if (!reader) return reader.error();
            part->reader.emplace(std::move(*reader));
            const auto& recipe = part->sim->recipe();
            const bool counting = kind == pmu::SimCapture::Tma;
            m_info.parts.push_back({ "", "", recipe.description, pmu::recipeHasTmaLevel2(recipe), counting });
            part->readFormat = recipe.events[0].attr.readFormat;
            m_intervals.emplace_back();
            if (counting)
                if (auto first = pmu::parseReadFormat(part->sim->readGroup(), part->readFormat))
                    m_intervals.back().start(*first);
            m_parts.push_back(std::move(part));
        }
        m_parts.front()->sim->registerSymbols(m_symbols); // every part runs the same program
        m_config = config;
        m_info.id = id;
        m_info.simulated = true;
        if (!m_request.machine.empty())
            m_info.caches = "simulated machine " + m_request.machine;
        else if (m_engineCpu)
            m_info.caches = "the engine's simulated machine";
        else
            m_info.caches = "the PMU's own L1/L2/L3 model";
        m_info.pmusUsed = "simulated " + config.model.label + "-class core";
        return {};
    }

    PmuBatch pump() override
    {
        // Every part runs the same slices, so their clocks (cycles / GHz) stay together.
        for (std::uint64_t left = m_request.simCyclesPerPump; left > 0;) {
            const std::uint64_t slice = std::min(left, kSliceCycles);
            for (auto& part : m_parts) {
                part->sim->run(slice);
                part->reader->drainDecoded(
                    part->decoder, m_scratch, [this](const pmu::DecodedRecord& r) { consume(r); });
            }
            left -= slice;
        }
        return batch();
    }

    Result<PmuBatch> readCounters() override
    {
        PmuBatch b = batch();
        for (std::size_t i = 0; i < m_parts.size(); ++i) {
            if (!m_info.parts[i].counting) continue;
            auto& sim = *m_parts[i]->sim;
            auto now = pmu::parseReadFormat(sim.readGroup(), m_parts[i]->readFormat);
            if (!now) return now.error();
            const auto& recipe = sim.recipe();
            const auto& iv = m_intervals[i].add(static_cast<std::uint64_t>(b.seconds * 1e9), *now,
                [&](const pmu::ReadData& d) { return pmu::tmaFromGroupRead(recipe, d); });
            // The simulated PMU's sample clock (SimPmu.cpp kTimeBase: simulated time starts at 1 s).
            const auto simNs = 1'000'000'000ull + static_cast<std::uint64_t>(sim.truth().cycles / m_config.ghz);
            b.tma.push_back({ static_cast<std::uint32_t>(i), b.seconds, iv.breakdown, simNs });
        }
        return b;
    }

    void stop() override { }

    void setL3Mask(std::uint32_t cbm) override
    {
        // Lines the program holds beyond its new ways are not flushed (SDM 20.19.4): they age out as it runs.
        for (auto& part : m_parts)
            if (part->machine)
                part->machine->setL3Mask(part->machine->l3DomainOfCpu(kProgramCpus[0]), kProgramClos, cbm);
    }

    bool m_badMachine = false; ///< the request named a machine preset that does not exist
    std::optional<CpuidTable> m_engineCpu; ///< the engine's machine, for a program in a group with no preset named

protected:
    void fillReport(PmuReport& r) override
    {
        for (const auto& part : m_parts)
            r.parts.push_back({ m_parts.size() > 1 ? part->sim->recipe().description : "", part->reader->stats(),
                part->reader->decodeErrors() });
        r.simulatedCpuMs = m_parts.front()->sim->truth().cycles / m_config.ghz / 1e6;
    }

private:
    struct Part {
        std::unique_ptr<sim::SimMachine> machine; ///< with PmuRequest::machine: whose caches serve the loads
        std::optional<pmu::SimPmu> sim;
        std::optional<pmu::RingReader> reader;
        pmu::RecordDecoder decoder; ///< each SimPmu numbers its events the same way, so one decoder per part
        std::uint64_t readFormat = 0;
    };
    pmu::SimPmuConfig m_config;
    std::vector<std::unique_ptr<Part>> m_parts; ///< one per recipe, in m_info.parts' order
    pmu::DecodedRecord m_scratch;
};

/// The request's simulated-PMU settings, checked: the engine is where every front end's request is judged.
Result<pmu::SimPmuConfig> simConfig(const PmuRequest& request)
{
    pmu::SimPmuConfig cfg;
    if (request.kind == PmuCaptureKind::CpuClock)
        return errnoError(EINVAL, "the simulated PMU has no cpu-clock capture",
            "use tma, lbr or mem on the simulated PMU, or cpu-clock with perf");
    if (request.simCyclesPerPump < 1 || request.simCyclesPerPump > kMaxCyclesPerPump)
        return errnoError(EINVAL,
            "simulated cycles per pump " + std::to_string(request.simCyclesPerPump) + " is not in 1..10^8",
            "a pump blocks the engine while it runs (about a second at 10^8); pump more often instead");
    if (!std::isfinite(request.simGhz) || request.simGhz < 1e-6 || request.simGhz > 1000)
        return errnoError(EINVAL, "simulated clock " + std::to_string(request.simGhz) + " GHz is not in 10^-6..1000");
    if (!request.simPmu.empty()) {
        auto model = pmu::simulatedPmuModelNamed(request.simPmu);
        if (!model)
            return errnoError(EINVAL, "no simulated PMU named '" + request.simPmu + "'",
                "name one of " + pmu::simulatedPmuModelNames());
        cfg.model = *model;
    }
    cfg.ldlat = request.ldlat;
    cfg.memoryScale = request.memoryScale;
    cfg.program = request.program;
    cfg.ghz = request.simGhz;
    return cfg;
}

} // namespace

std::unique_ptr<PmuCapture> startSimPmuCapture(
    std::uint32_t id, const PmuRequest& request, PmuStarted& out, const CpuidTable* engineCpu)
{
    auto cfg = simConfig(request);
    if (!cfg) {
        out.failure = PmuFailure::BadRequest;
        out.result = CommandResult::failure(cfg.error());
        return nullptr;
    }
    auto capture = std::make_unique<SimPmuCapture>(request, engineCpu);
    if (auto st = capture->open(id, *cfg); !st) {
        out.failure = capture->m_badMachine ? PmuFailure::BadRequest : PmuFailure::Start;
        out.result = CommandResult::failure(st.error());
        return nullptr;
    }
    out.info = capture->info();
    out.result = CommandResult::success();
    return capture;
}

} // namespace rdt::engine

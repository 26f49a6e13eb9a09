// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimSource.h"

#include "MsrBackend.h"
#include "ResctrlBackend.h"
#include "SimMsrScenario.h"

#include <cerrno>

#ifdef RDTSCOPE_HAVE_SIM
#include "sim/Scenario.h"
#include "sim/SimMachine.h"
#include "sim/SimMsrSpace.h"
#include "sim/SimResctrlFs.h"
#include "sim/Simulation.h"
#endif
#ifdef RDTSCOPE_HAVE_PLATFORM
#include "platform/CpuFeatures.h"
#include "platform/CpuidDump.h"
#include "platform/DevMsr.h"
#include "platform/LiveCpuid.h"
#include "platform/Topology.h"
#endif

namespace rdt {

#ifdef RDTSCOPE_HAVE_SIM
namespace {
/// The SimulationControl of the `sim` source: a scenario file run by capture/sim's Simulation, whose timed
/// steps fire from the machine's tick listener while we advance time.
class ScenarioControl final : public SimulationControl {
public:
    explicit ScenarioControl(std::shared_ptr<sim::Simulation> simulation)
        : m_sim(std::move(simulation))
    { }
    std::uint64_t nowNs() const override { return m_sim->machine().nowNs(); }
    std::string cpuidJson() const override { return cpuidTableToJson(m_sim->machine().cpuid().table()); }
    void advanceTo(std::uint64_t t) override
    {
        const auto now = m_sim->machine().nowNs();
        if (t > now) m_sim->advance(t - now);
    }
    std::string scenarioName() const override { return m_sim->scenario().name; }
    std::string describe() const override
    {
        return "simulated " + m_sim->machine().features().brand + ", " + std::to_string(m_sim->machine().cpuCount())
            + " CPUs, scenario " + m_sim->scenario().name;
    }
    std::vector<SimulationEvent> takeEvents() override
    {
        std::vector<SimulationEvent> out;
        for (const auto& e : m_sim->events(m_seen))
            out.push_back({ e.timeNs, e.text, e.ok, e.note });
        m_seen += out.size();
        return out;
    }

private:
    std::shared_ptr<sim::Simulation> m_sim;
    std::size_t m_seen = 0;
};

}

MsrRdtEnumeration msrEnumerationOf(const sim::SimMachine& m)
{
    {
        const auto& f = m.features();
        MsrRdtEnumeration e;
        e.maxRmid = f.mon.present ? f.mon.l3MaxRmid : 0;
        e.upscalingFactor = f.mon.scale;
        e.mbmWidth = f.mon.counterWidth;
        e.overflowBit = f.mon.overflowBit;
        e.llcOccupancy = f.mon.occupancy;
        e.mbmTotal = f.mon.mbmTotal;
        e.mbmLocal = f.mon.mbmLocal;
        e.l3Cat = f.l3Cat.present;
        e.l3CbmLength = f.l3Cat.cbmLen;
        e.l3Shareable = f.l3Cat.shareableBits;
        e.l3Cdp = f.l3Cat.cdp;
        e.l3Sparse = f.l3Cat.sparse;
        e.l3MaxClos = f.l3Cat.numClos ? f.l3Cat.numClos - 1 : 0;
        e.l3BytesPerBit = f.l3Cat.cbmLen ? f.l3.sizeBytes() / f.l3Cat.cbmLen : 0;
        e.l2Cat = f.l2Cat.present;
        e.l2CbmLength = f.l2Cat.cbmLen;
        e.l2Shareable = f.l2Cat.shareableBits;
        e.l2Cdp = f.l2Cat.cdp;
        e.l2Sparse = f.l2Cat.sparse;
        e.l2MaxClos = f.l2Cat.numClos ? f.l2Cat.numClos - 1 : 0;
        e.mba = f.mba.present;
        e.mbaMaxDelay = f.mba.maxDelay;
        e.mbaLinear = f.mba.linear;
        e.mbaMaxClos = f.mba.numClos ? f.mba.numClos - 1 : 0;
        e.cba = f.cba.present;
        e.cbaMaxLevel = f.cba.maxLevel;
        e.cbaMaxClos = f.cba.numClos ? f.cba.numClos - 1 : 0;
        for (unsigned c = 0; c < m.cpuCount(); ++c) {
            e.l3IdOfCpu.push_back(static_cast<int>(m.l3DomainOfCpu(c)));
            e.l2IdOfCpu.push_back(static_cast<int>(m.l2DomainOfCpu(c)));
        }
        return e;
    }
}

Result<RdtSource> openSimSource(const std::string& spec, const std::string& scenario)
{
    RdtSource s;
    s.kind = spec;
    s.simulated = true;
    if (spec == "sim") {
        // A scenario file (resources/scenarios, or a path) run by capture/sim: machine, resctrl emulation, threads,
        // groups and timed steps; we see it through the same ResctrlBackend as a real /sys/fs/resctrl.
        auto loaded = sim::loadScenario(scenario);
        if (!loaded) {
            Error e = loaded.error();
            std::string names;
            for (const auto& n : sim::builtinScenarioNames())
                names += (names.empty() ? "" : ", ") + n;
            e.advice += (e.advice.empty() ? "" : "; ") + std::string("built-in scenarios: ") + names;
            return e;
        }
        auto created = sim::Simulation::create(*loaded);
        if (!created) return created.error();
        std::shared_ptr<sim::Simulation> simulation(std::move(*created));
        // The Fs handle keeps the whole simulation alive for as long as the backend uses it.
        auto fs = std::shared_ptr<Fs>(&simulation->resctrl(), [simulation](Fs*) {});
        auto b = ResctrlBackend::open(fs);
        if (!b) return b.error();
        s.backend = std::move(*b);
        s.simulation = std::make_shared<ScenarioControl>(simulation);
        return s;
    }
    // sim-msr: the MSR protocol needs the hardware to itself (no resctrl mounted), so the scenario's machine is
    // built without the resctrl emulation and its steps go through the MSR backend (CPUs, not tasks).
    return openSimMsrScenario(scenario);
}
#else
Result<RdtSource> openSimSource(const std::string& spec, const std::string& scenario)
{
    return errnoError(ENOSYS, "source '" + spec + "' (scenario " + scenario + ") is not available in this build",
        "the simulator (capture/sim) is not built in");
}
#endif

#ifdef RDTSCOPE_HAVE_PLATFORM
Result<RdtSource> openMsrSource(const RdtSourceOptions& options)
{
    std::string mountPoint;
    resctrlMounted(options.mountsFile, &mountPoint);
    if (!LiveCpuid::instructionAvailable())
        return errnoError(ENODEV, "the CPUID instruction is not available here", "use --source sim-msr");
    auto cpuid = LiveCpuid::onCpu(0);
    if (!cpuid) return cpuid.error();
    const auto f = decodeCpuFeatures(*cpuid);
    if (!f.identity.isIntel())
        return errnoError(ENODEV, "this CPU is " + f.identity.vendor + ", not GenuineIntel: no Intel RDT MSRs",
            "use --source sim-msr to explore the MSR protocol on the simulated Xeon");
    auto topo = readTopology("/sys");
    if (!topo) return topo.error();
    MsrRdtEnumeration e;
    e.maxRmid = f.monitoring.l3DetailsKnown ? f.monitoring.highestRmid : 0;
    e.upscalingFactor = f.monitoring.upscalingFactor ? f.monitoring.upscalingFactor : 1;
    e.mbmWidth = f.monitoring.counterWidth ? f.monitoring.counterWidth : 24;
    e.overflowBit = f.monitoring.overflowBit;
    e.llcOccupancy = f.monitoring.occupancy;
    e.mbmTotal = f.monitoring.totalBandwidth;
    e.mbmLocal = f.monitoring.localBandwidth;
    const auto& a = f.allocation;
    e.l3Cat = a.l3.detailsKnown;
    e.l3CbmLength = a.l3.cbmLength;
    e.l3Shareable = a.l3.shareableBits;
    e.l3Cdp = a.l3.cdp;
    e.l3Sparse = a.l3.nonContiguous;
    e.l3MaxClos = a.l3.highestClos;
    e.l3BytesPerBit = a.l3.bytesPerCbmBit;
    e.l2Cat = a.l2.detailsKnown;
    e.l2CbmLength = a.l2.cbmLength;
    e.l2Shareable = a.l2.shareableBits;
    e.l2Cdp = a.l2.cdp;
    e.l2Sparse = a.l2.nonContiguous;
    e.l2MaxClos = a.l2.highestClos;
    e.mba = a.mba.detailsKnown;
    e.mbaMaxDelay = a.mba.maxThrottle;
    e.mbaLinear = a.mba.linear;
    e.mbaMaxClos = a.mba.highestClos;
    e.cba = a.cba.detailsKnown;
    e.cbaMaxLevel = a.cba.maxLevel;
    e.cbaMaxClos = a.cba.highestClos;
    e.l3IdOfCpu.assign(topo->cpus.size(), 0);
    e.l2IdOfCpu.assign(topo->cpus.size(), 0);
    for (const auto& d : topo->l3)
        for (unsigned c : d.cpus)
            if (c < e.l3IdOfCpu.size()) e.l3IdOfCpu[c] = static_cast<int>(d.id);
    for (const auto& d : topo->l2)
        for (unsigned c : d.cpus)
            if (c < e.l2IdOfCpu.size()) e.l2IdOfCpu[c] = static_cast<int>(d.id);
    auto msrs = std::make_shared<DevMsr>("/dev/cpu", static_cast<unsigned>(topo->cpus.size()));
    if (auto probe = msrs->read(0, msr::IA32_PQR_ASSOC); !probe) return probe.error();
    auto b = MsrBackend::open(msrs, e, mountPoint);
    if (!b) return b.error();
    RdtSource s;
    s.kind = "msr";
    s.why = "msr requested with --source msr (" + f.identity.brand + ")";
    s.warnings = (*b)->warnings();
    s.backend = std::move(*b);
    return s;
}
#else
Result<RdtSource> openMsrSource(const RdtSourceOptions&)
{
    return errnoError(ENOSYS, "source 'msr' is not available in this build",
        "the MSR device layer (capture/platform DevMsr) is not built in");
}
#endif

} // namespace rdt

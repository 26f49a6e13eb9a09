// SPDX-License-Identifier: GPL-3.0-or-later
#include "SelftestSimMachine.h"

#include "platform/CpuidDump.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"
#include "sim/SimResctrlFs.h"

#include <algorithm>

namespace rdt {

Result<std::shared_ptr<SelftestSimMachine>> SelftestSimMachine::create(const SelftestSimOptions& options)
{
    auto cpuid = sim::presetCpuid(options.preset.empty() ? sim::defaultPresetId() : options.preset);
    if (!cpuid) return cpuid.error();
    sim::SimOptions o;
    o.topology.coresPerSocket = std::max(2u, options.cores);
    o.ignoreCatMasks = options.ignoreCatMasks;
    auto machine = sim::SimMachine::create(*cpuid, o);
    if (!machine) return machine.error();
    auto fs = sim::SimResctrlFs::mount(**machine);
    if (!fs) return fs.error();
    std::shared_ptr<SelftestSimMachine> m(new SelftestSimMachine());
    m->m_machine = std::move(*machine);
    m->m_fs = std::move(*fs);
    m->m_cancel = options.cancel;
    return m;
}

SelftestSimMachine::~SelftestSimMachine()
{
    m_fs.reset(); // the emulated kernel goes before the machine it runs on
}

std::shared_ptr<Fs> SelftestSimMachine::resctrl()
{
    return std::shared_ptr<Fs>(shared_from_this(), m_fs.get());
}

std::string SelftestSimMachine::cpuidJson() const
{
    return cpuidTableToJson(m_machine->cpuid().table());
}

std::string SelftestSimMachine::describeMachine() const
{
    return "simulated " + m_machine->cpuid().brand() + ", " + std::to_string(m_machine->cpuCount()) + " CPUs";
}

Result<unsigned> SelftestSimMachine::start(unsigned cpu, std::uint64_t workingSetBytes)
{
    sim::WorkloadSpec spec;
    spec.pattern = sim::Pattern::Stream;
    spec.workingSet = workingSetBytes;
    spec.computeCycles = 2;
    auto tid = m_machine->addThread("selftest-streamer", cpu, spec);
    if (!tid) return tid.error();
    return unsigned(*tid);
}

void SelftestSimMachine::stop(unsigned task)
{
    (void)m_machine->removeThread(int(task));
}

bool SelftestSimMachine::run(std::uint64_t ns)
{
    constexpr std::uint64_t kStep = 10'000'000; // 10 ms of simulated time between looks at the cancel flag
    for (std::uint64_t done = 0; done < ns; done += kStep) {
        if (m_cancel && m_cancel->load()) return false;
        m_machine->advance(std::min(kStep, ns - done));
    }
    return !(m_cancel && m_cancel->load());
}

bool SelftestSimMachine::hasTask(unsigned task) const
{
    return m_machine->thread(int(task)).has_value();
}

std::optional<std::uint64_t> SelftestSimMachine::bytesMoved(unsigned task) const
{
    auto t = m_machine->thread(int(task));
    if (!t) return std::nullopt;
    return t->stats.memReadBytes + t->stats.memWriteBytes;
}

} // namespace rdt

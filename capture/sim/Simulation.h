// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Scenario.h"
#include "SimMachine.h"
#include "SimMsrSpace.h"
#include "SimResctrlFs.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rdt::sim {

/// What the command line or the GUI overrides of a scenario's machine.
struct SimulationOptions {
    std::string cpuidFile; ///< `--sim-cpuid FILE`: any CPUID dump instead of the scenario's preset
    std::string preset; ///< a preset id instead of the scenario's (with that preset's size, PresetInfo)
    int cores = -1; ///< cores per socket; -1 = the scenario's (default 8)
    int sampling = -1; ///< set sampling factor; -1 = the scenario's
    std::uint32_t maxTimeScale = 1; ///< time sampling once steady (TimeScale.h); 1 = every access simulated
    /// ResctrlMountOptions::hostTaskExists: the emulated resctrl also takes host PIDs (served through FUSE).
    std::function<bool(unsigned pid)> hostTaskExists;
    std::function<std::vector<unsigned>()> listHostTasks; ///< ResctrlMountOptions::listHostTasks
};

/// Something a scenario did or said, with the simulated time (lesson notes, and every command's outcome).
struct ScenarioEvent {
    std::uint64_t timeNs = 0;
    std::string text;
    bool ok = true; ///< false: the command failed; text holds the kernel's or the SDM's reason
    bool note = false; ///< a lesson note rather than a command
};

/// A running scenario: the machine, the emulated resctrl mounted on it, its MSR space, and the timed steps,
/// which fire from a tick listener so whoever advances the machine (engine, sampler, SimRunner) drives them.
/// Setup steps (at 0 s) run in create() and must succeed; later steps record their failures as events, so a
/// lesson can show a rejected write and the kernel's message.
class Simulation {
public:
    static Result<std::unique_ptr<Simulation>> create(const Scenario& scenario, const SimulationOptions& options = {});
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    SimMachine& machine() { return *m_machine; }
    SimResctrlFs& resctrl() { return *m_fs; }
    SimMsrSpace& msr() { return *m_msr; }
    const Scenario& scenario() const { return m_scenario; }

    void advance(std::uint64_t ns) { m_machine->advance(ns); }
    /// Events since index `from` (pass the size you have seen to get only new ones).
    std::vector<ScenarioEvent> events(std::size_t from = 0) const;
    bool finished() const;
    /// Holds (true) or releases the timed steps; steps due while held run at the first tick after the release.
    void holdTimedSteps(bool hold) { m_holdSteps = hold; }
    /// Machine description for the panel and the session: preset/dump, synthesized leaves, "simulated".
    std::vector<std::string> describe() const;
    /// Unmounts the emulated resctrl and mounts it again with L3 CDP on or off (`mount -t resctrl resctrl -o cdp`):
    /// the kernel sets IA32_L3_QOS_CFG.CDP only at mount time (Documentation/filesystems/resctrl.rst). As a
    /// provisioning script would after the remount, the groups that existed are made again with their tasks and
    /// CPUs; their allocations start at the defaults (the unmount reset every control). Fails before anything
    /// changed when the processor has no L3 CDP. The old mount is gone on success: whoever holds a backend over
    /// resctrl() must drop it and open a new one. The groups travel in a ResctrlGroupSnapshot.
    Status remountResctrl(bool cdp);

private:
    Simulation() = default;
    Status runStep(const ScenarioStep& step);
    void onTick(std::uint64_t nowNs);
    int tidOf(const std::string& name) const;

    Scenario m_scenario;
    std::unique_ptr<SimMachine> m_machine;
    std::unique_ptr<SimResctrlFs> m_fs;
    std::unique_ptr<SimMsrSpace> m_msr;
    std::size_t m_nextStep = 0;
    std::atomic<bool> m_holdSteps { false }; ///< set by an experiment, read by the tick listener
    std::vector<ScenarioEvent> m_events;
    int m_listener = 0;
};

/// Expands the escapes of a scenario `write`: "\n" is a newline, and a trailing newline is added unless the text
/// ends in "\c" (like `echo -n`, to show the kernel's trailing-newline rule).
std::string expandWriteText(const std::string& text);

} // namespace rdt::sim

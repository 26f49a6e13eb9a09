// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulated machine `rdtscope-cli selftest --source sim` (and tests/simfs test_conformance) test: its emulated
// resctrl, handed to the self-test through the Fs seam, and its streamers, simulated threads. Here in the engine
// because capture/selftest must not depend on the simulator (tests/CheckDependencyDirection.cmake).

#include "core/Fs.h"
#include "selftest/StreamWorkload.h"

#include <atomic>
#include <memory>
#include <string>

namespace rdt {

namespace sim {
class SimMachine;
class SimResctrlFs;
}

struct SelftestSimOptions {
    std::string preset; ///< a CPU preset id (capture/sim presets); "" = the default preset
    unsigned cores = 4; ///< cores of the one socket
    /// A deliberately broken processor (sim::SimOptions::ignoreCatMasks): the CAT fence check must then fail.
    bool ignoreCatMasks = false;
    const std::atomic<bool>* cancel = nullptr; ///< run() stops early when set
};

class SelftestSimMachine final : public selftest::StreamWorkload,
                                 public std::enable_shared_from_this<SelftestSimMachine> {
public:
    static Result<std::shared_ptr<SelftestSimMachine>> create(const SelftestSimOptions& options);
    ~SelftestSimMachine() override;

    /// The emulated kernel's resctrl tree; shares this machine's lifetime.
    std::shared_ptr<Fs> resctrl();
    /// The simulated CPU's CPUID as rdtscope's JSON snapshot (platform/CpuidDump.h), what `--cpuid-dump` reads.
    std::string cpuidJson() const;
    /// "simulated Xeon Gold 6154 (Skylake-SP), 4 cores".
    std::string describeMachine() const;

    Result<unsigned> start(unsigned cpu, std::uint64_t workingSetBytes) override;
    void stop(unsigned task) override;
    bool run(std::uint64_t ns) override;
    std::optional<std::uint64_t> bytesMoved(unsigned task) const override;
    std::string describe() const override { return "simulated streamer threads (simulated time)"; }
    /// Whether `task` is one of this machine's threads (what resctrl's tasks file accepts on it).
    bool hasTask(unsigned task) const;

private:
    SelftestSimMachine() = default;
    std::unique_ptr<sim::SimMachine> m_machine;
    std::unique_ptr<sim::SimResctrlFs> m_fs;
    const std::atomic<bool>* m_cancel = nullptr;
};

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CheckResult.h"
#include "StreamWorkload.h"
#include "core/Fs.h"
#include "rdt/ResctrlBackend.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rdt::selftest {

struct SelftestOptions {
    /// Read-only unless set: the write checks make groups named `prefix`N, and remove each before the next check.
    bool write = false;
    std::string prefix = "rdtscope-selftest-";
    /// What the effect checks run in their groups; null: they are skipped (saying so).
    StreamWorkload* workload = nullptr;
    /// Set (by a SIGINT/SIGTERM handler) to stop: the running check ends, the rest are not run, and every group
    /// made is removed.
    const std::atomic<bool>* cancel = nullptr;
    /// How long an effect check lets its streamer run per measurement (real time on hardware, simulated on the
    /// simulator).
    std::uint64_t measureNs = 300'000'000;
};

/// One conformance suite for every resctrl tree (`rdtscope-cli selftest`, tests/simfs test_conformance): each check
/// tests one behaviour a resctrl client relies on, cites the section of the kernel's
/// Documentation/filesystems/resctrl.rst or of the Intel SDM that defines it, and runs through rdtscope's unmodified
/// ResctrlBackend over the Fs it is given (a real /sys/fs/resctrl, a FUSE mount, the simulated kernel, a saved copy).
/// Read-only checks first; with SelftestOptions::write the checks that make groups; with a workload the effect checks
/// (a CAT fence bounds a streamer's occupancy, an MBA cap lowers its MBM, MBM counts a known stream), as the kernel's
/// own tools/testing/selftests/resctrl check them. Every group made is removed, on every path.
class ResctrlSelftest {
public:
    /// The checks in the order run() runs them.
    static std::vector<std::string> checkNames();

    ResctrlSelftest(std::shared_ptr<Fs> fs, SelftestOptions options);
    ~ResctrlSelftest(); ///< removes what is left of the groups made
    ResctrlSelftest(const ResctrlSelftest&) = delete;
    ResctrlSelftest& operator=(const ResctrlSelftest&) = delete;

    /// Opens the tree; an error means nothing can be tested (not a resctrl tree, unreadable).
    Status open();
    /// Removes groups an earlier run left with this run's prefix (a run killed with SIGKILL); their names.
    std::vector<std::string> removeLeftovers();
    /// Every check in order; `report` sees each result as soon as it is known. Stops early when cancelled.
    std::vector<CheckResult> run(const std::function<void(const CheckResult&)>& report = {});
    /// One check by name (checkNames()); unknown names fail.
    CheckResult runCheck(const std::string& name);
    /// Removes every group this run made that still exists.
    void cleanup();
    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }

private:
    struct Check;
    static const std::vector<Check>& checks();

    // Read-only checks.
    CheckResult infoCacheMasks();
    CheckResult infoMemoryBandwidth();
    CheckResult infoMonitoring();
    CheckResult defaultGroupSchemata();
    CheckResult cpusInOneGroup();
    CheckResult countersReadable();
    // Checks that make groups.
    CheckResult closidLimit();
    CheckResult schemataReadsBack();
    CheckResult noncontiguousMaskRefused();
    CheckResult cpusMoveAndReturn();
    CheckResult mbmCountsCpuWork();
    // Effect checks (a workload runs in the groups).
    CheckResult catFenceBoundsOccupancy();
    CheckResult mbaCapLowersMbm();
    CheckResult mbmCountsKnownStream();

    /// A control group of this run's own; its path, or the error.
    Result<std::string> makeGroup();
    Status removeGroup(const std::string& path);
    /// Why the effect checks cannot run here (no --write, no workload, the workload unobservable); empty if they can.
    std::string effectSkipReason() const;
    /// Sum over domains of a group's mbm_total_bytes (mbm_local_bytes when total is absent); nullopt on error flags.
    std::optional<std::uint64_t> mbmBytes(const std::string& group);
    std::optional<std::uint64_t> occupancyBytes(const std::string& group);
    /// Lets the workload run `ns`; false when cancelled.
    bool let(std::uint64_t ns);

    std::shared_ptr<Fs> m_fs;
    SelftestOptions m_options;
    std::unique_ptr<ResctrlBackend> m_backend;
    Capabilities m_caps;
    std::vector<std::string> m_made; ///< groups made and not yet removed
    unsigned m_next = 0;
};

} // namespace rdt::selftest

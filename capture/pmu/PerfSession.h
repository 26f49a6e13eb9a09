// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The live `perf` source: opens a Recipe's group on every target (each thread of the given PIDs, a launched
// command, or every online CPU), maps one ring per group leader (members' samples are redirected into it with
// PERF_EVENT_IOC_SET_OUTPUT), registers every fd's sample id with the decoder (PERF_EVENT_IOC_ID), and then
// drains rings and reads counter groups. All kernel calls go through PerfSyscalls.

#include "PerfSyscalls.h"
#include "Recipes.h"
#include "RecordDecoder.h"
#include "RingReader.h"
#include "Workload.h"

#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rdt::pmu {

struct PerfTarget {
    std::vector<pid_t> pids; ///< attach to every thread of these processes
    std::vector<std::string> command; ///< launch this (argv), counting from its exec (enable_on_exec)
    /// A command already forked and corked (Workload::prepare), shared by several sessions: each opens its events
    /// on workload->pid() with enable_on_exec, and the first start() lets it exec. Takes the place of `command`.
    std::shared_ptr<Workload> workload;
    bool systemWide = false; ///< every online CPU (needs perf_event_paranoid <= 0 or CAP_PERFMON)
    /// Count the tasks of one cgroup: an open directory of the cgroup v2 tree (or of cgroup v1's perf_event
    /// hierarchy) passed as pid with PERF_FLAG_PID_CGROUP, one group per CPU (perf_event_open(2): "cgroup
    /// monitoring"; what `perf stat -G` does). Per-CPU like system-wide, so it needs the same privileges.
    int cgroupFd = -1;
};

class PerfSession {
public:
    /// Opens the recipe on the target. `ringPages` data pages per ring (power of two).
    static Result<std::unique_ptr<PerfSession>> open(
        PerfSyscalls& sys, const Recipe& recipe, const PerfTarget& target, std::size_t ringPages = 64);
    ~PerfSession();
    PerfSession(const PerfSession&) = delete;
    PerfSession& operator=(const PerfSession&) = delete;

    /// Enables the groups; with a launched command, lets it exec instead (the kernel enables the events at exec).
    /// Fails with "cannot run 'foo': ..." when the command cannot be executed.
    Status start();
    /// Disables the groups. A launched command keeps running until the last session sharing it is destroyed,
    /// which ends it (SIGTERM, then SIGKILL) and reaps it.
    Status stop();

    /// Drains every ring through the decoder; `consume(const DecodedRecord&)`. Returns records consumed.
    /// A task sampled on several CPUs has one ring per CPU, and the MMAP2 of its exec may sit in another CPU's ring
    /// than its first samples. perf sorts by time across rings (tools/perf/util/ordered-events.c); here the
    /// side-band records (MMAP2, COMM, FORK...) of every ring are handed over before the samples of this drain, so a
    /// sample is never symbolized before a mapping that was made before it. Samples are copied out meanwhile.
    template <typename F> std::size_t drain(F&& consume)
    {
        std::size_t n = 0;
        m_heldSamples.clear();
        for (auto& r : m_rings)
            n += r.reader->drain([&](std::span<const std::byte> record) {
                if (isSampleRecord(record)) {
                    m_heldSamples.insert(m_heldSamples.end(), record.begin(), record.end());
                    return;
                }
                if (decodeInto(record)) consume(static_cast<const DecodedRecord&>(m_scratch));
            });
        for (std::size_t off = 0; off < m_heldSamples.size();) {
            const std::span<const std::byte> record = heldRecordAt(off);
            off += record.size();
            if (decodeInto(record)) consume(static_cast<const DecodedRecord&>(m_scratch));
        }
        return n;
    }
    /// Sum of all rings' statistics (lost, throttled, overruns...).
    RingStats ringStats() const;
    /// Records that could not be decoded (each one skipped and counted).
    std::uint64_t decodeErrors() const { return m_decodeErrors; }

    /// Reads every group (counting recipes) and returns the sum over targets, in recipe event order; time_enabled
    /// and time_running are summed too, so their ratio stays the multiplexing scale.
    Result<ReadData> readGroups();

    /// A launched command: its pid (-1 for a PID or system-wide target), and whether it has exited (reaps it;
    /// wait status in childStatus()).
    pid_t childPid() const { return m_workload ? m_workload->pid() : -1; }
    bool childExited() { return m_workload && m_workload->exited(); }
    int childStatus() const { return m_workload ? m_workload->status() : 0; }
    const std::shared_ptr<Workload>& workload() const { return m_workload; }
    const RecordDecoder& decoder() const { return m_decoder; }
    /// The recipe as opened: an event's attr carries the precise_ip the PMU accepted (see notes()).
    const Recipe& recipe() const { return m_recipe; }
    /// What differs from the recipe asked for, for the CLI and GUI to show: "precise_ip lowered to 1 for
    /// MEM_TRANS_RETIRED:LOAD_LATENCY: the PMU refused 2".
    const std::vector<std::string>& notes() const { return m_notes; }
    /// precise_ip per recipe event: what the recipe asked for, and what was used (the lowest any target needed).
    unsigned requestedPreciseIp(std::size_t event) const { return m_requestedPrecise.at(event); }
    unsigned usedPreciseIp(std::size_t event) const { return m_recipe.events.at(event).attr.preciseIp(); }
    std::size_t groupCount() const { return m_groups.size(); }

private:
    PerfSession(PerfSyscalls& sys, Recipe recipe)
        : m_sys(sys)
        , m_recipe(std::move(recipe))
    { }
    Status openGroup(pid_t pid, int cpu, bool enableOnExec, std::size_t ringPages, unsigned long flags = 0);
    static bool isSampleRecord(std::span<const std::byte> record);
    std::span<const std::byte> heldRecordAt(std::size_t offset) const;
    bool decodeInto(std::span<const std::byte> record);

    struct Group {
        std::vector<UniqueFd> fds; ///< recipe order
    };
    struct Ring {
        MappedRegion map;
        std::unique_ptr<RingReader> reader;
    };
    PerfSyscalls& m_sys;
    Recipe m_recipe;
    std::vector<Group> m_groups;
    std::vector<Ring> m_rings;
    std::vector<std::vector<std::uint64_t>> m_ids; ///< per recipe event
    std::vector<unsigned> m_requestedPrecise; ///< per recipe event, before any fallback
    std::vector<std::string> m_notes;
    RecordDecoder m_decoder;
    DecodedRecord m_scratch;
    std::vector<std::byte> m_heldSamples; ///< this drain's sample records, handed over after the side-band
    std::uint64_t m_decodeErrors = 0;
    std::shared_ptr<Workload> m_workload; ///< the launched command (shared with the other sessions on it)
};

/// Opens several recipes on one target, as perf opens an evlist: a command is forked once (one Workload shared by
/// every session, their events attached to its pid with enable_on_exec). Call start() on each session afterwards;
/// the first one lets the command exec, so every recipe counts it from its first instruction.
Result<std::vector<std::unique_ptr<PerfSession>>> openSessions(
    PerfSyscalls& sys, const std::vector<Recipe>& recipes, const PerfTarget& target, std::size_t ringPages = 64);

} // namespace rdt::pmu

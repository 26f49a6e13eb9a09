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

#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rdt::pmu {

struct PerfTarget {
    std::vector<pid_t> pids; ///< attach to every thread of these processes
    std::vector<std::string> command; ///< launch this (argv), counting from its exec (enable_on_exec)
    bool systemWide = false; ///< every online CPU (needs perf_event_paranoid <= 0 or CAP_PERFMON)
};

class PerfSession {
public:
    /// Opens the recipe on the target. `ringPages` data pages per ring (power of two).
    static Result<std::unique_ptr<PerfSession>> open(PerfSyscalls& sys, const Recipe& recipe, const PerfTarget& target,
        std::size_t ringPages = 64);
    ~PerfSession();
    PerfSession(const PerfSession&) = delete;
    PerfSession& operator=(const PerfSession&) = delete;

    /// Enables the groups (and lets a launched command exec).
    Status start();
    Status stop();

    /// Drains every ring through the decoder; `consume(const DecodedRecord&)`. Returns records consumed.
    template <typename F> std::size_t drain(F&& consume)
    {
        std::size_t n = 0;
        for (auto& r : m_rings)
            n += r.reader->drainDecoded(m_decoder, m_scratch, consume);
        return n;
    }
    /// Sum of all rings' statistics (lost, throttled, overruns...).
    RingStats ringStats() const;
    std::uint64_t decodeErrors() const;

    /// Reads every group (counting recipes) and returns the sum over targets, in recipe event order; time_enabled
    /// and time_running are summed too, so their ratio stays the multiplexing scale.
    Result<ReadData> readGroups();

    /// A launched command: its pid, and whether it has exited (reaps it; exit status in childStatus()).
    pid_t childPid() const { return m_child; }
    bool childExited();
    int childStatus() const { return m_childStatus; }
    const RecordDecoder& decoder() const { return m_decoder; }
    const Recipe& recipe() const { return m_recipe; }
    std::size_t groupCount() const { return m_groups.size(); }

private:
    PerfSession(PerfSyscalls& sys, Recipe recipe)
        : m_sys(sys)
        , m_recipe(std::move(recipe))
    {
    }
    Status openGroup(pid_t pid, int cpu, bool enableOnExec, std::size_t ringPages);
    Status launch(const std::vector<std::string>& argv);

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
    RecordDecoder m_decoder;
    DecodedRecord m_scratch;
    pid_t m_child = -1;
    int m_goFd = -1; ///< write end of the pipe the launched child waits on before exec
    int m_errFd = -1; ///< read end of the pipe a failed exec reports its errno on
    bool m_childReaped = false;
    int m_childStatus = 0;
};

} // namespace rdt::pmu

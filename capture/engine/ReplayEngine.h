// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A recorded session (capture/session, docs/SESSION-FORMAT.md) as an engine: the GUI's replay and `rdtscope-cli
// replay` read its samples, allocation changes, groups and allocation layout through the calls they use for a live
// source, so neither works out ways, cache sizes or bandwidth units of its own. Its answers are those recorded at
// the playback position; it writes nothing (writability says why).

#include "Engine.h"
#include "ReplayPlayback.h"
#include "session/ReplaySource.h"
#include "session/SessionReader.h"

#include <memory>
#include <optional>
#include <string>

namespace rdt::engine {

class ReplayEngine final : public Engine, public ReplayPlayback {
public:
    /// Opens `path` read-only; a damaged file opens with what can be read (reader().issues() says what could not).
    static Result<std::unique_ptr<ReplayEngine>> open(const std::string& path);
    /// Plays `reader`'s session; `clock` is the wall clock paced playback follows (monotonic by default; tests pass
    /// a fake one). Starts paused at the session's start, at 1x.
    explicit ReplayEngine(std::shared_ptr<session::SessionReader> reader, session::ReplaySource::Clock clock = {});

    const session::SessionReader& reader() const { return *m_reader; }

    // Engine: what the session recorded, at the playback position.
    bool hasRdt() const override { return true; }
    /// The recording machine as the session tells it (session/RecordedCapabilities.h) and its CPUID snapshot.
    Result<MachineDescription> machine() override;
    const SourceDescription& source() const override { return m_description; }
    Result<api::AllocationLayout> allocationLayout() override;
    /// Control groups with the allocations in force at the position; groups whose membership was recorded with
    /// their CPUs and tasks.
    GroupsSnapshot snapshot(bool withTasks = false) override;
    /// The recording machine's CPUID decoded as `rdtscope-cli info --cpuid-dump` decodes a dump: no environment or
    /// topology (this host's would be wrong). Refused when the session has no CPUID snapshot.
    Result<CapabilityReport> describeMachine() override;

    std::uint64_t nowNs() const override { return positionNs(); }
    void advanceTo(std::uint64_t timeNs) override { (void)timeNs; }

    CommandResult createGroup(const std::string& name) override;
    CommandResult createMonitorGroup(const std::string& parent, const std::string& name) override;
    CommandResult deleteGroup(const std::string& path) override;
    CommandResult assignTasks(const std::string& path, const std::vector<unsigned>& pids) override;
    CommandResult assignCpus(const std::string& path, const std::vector<unsigned>& cpus) override;
    CommandResult configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions) override;
    CommandResult assignCounter(const std::string& path, const std::string& event, int domain, bool assign) override;
    CommandResult setCdp(bool enabled) override;
    AllocationResult applyAllocation(const std::string& group, const Schemata& change) override;
    /// The recorded interval is what it is: accepted (nothing to poll), the recorded one reported.
    CommandResult setSamplingInterval(std::uint64_t intervalNs) override;
    std::uint64_t samplingIntervalNs() const override;
    /// Nothing runs in the background: every drainEvents() pulls what is due.
    CommandResult pollRdt() override { return CommandResult::success(); }
    CommandResult startSampling() override { return CommandResult::success(); }
    void stopSampling() override { }

    PmuStarted startPmu(const PmuRequest& request) override;
    CommandResult pumpPmu(std::uint32_t id) override;
    CommandResult readPmuCounters(std::uint32_t id) override;
    bool pmuFinished(std::uint32_t id) override;
    CommandResult stopPmu(std::uint32_t id) override;
    Result<PmuReport> pmuReport(std::uint32_t id, std::size_t topN) override;
    std::vector<PmuBatch> drainPmuBatches() override { return {}; }

    /// What became due since the last call (paced by the wall clock and the speed, or the next chunk as fast as
    /// possible), in time order: each sample batch after the allocation changes recorded up to its time. A long
    /// stretch with no samples is skipped with an EngineWarning saying how much.
    std::vector<EngineEvent> drainEvents() override;
    std::uint64_t droppedEvents() const override { return 0; }
    /// Taps see what each drainEvents() hands out, on the draining thread.
    std::uint64_t addEventTap(EventTap tap) override { return m_taps.add(std::move(tap)); }
    void removeEventTap(std::uint64_t id) override { m_taps.remove(id); }

    // ReplayPlayback
    std::uint64_t startNs() const override { return m_replay.startNs(); }
    std::uint64_t endNs() const override { return m_replay.endNs(); }
    std::uint64_t positionNs() const override { return m_replay.position(); }
    bool playing() const override { return m_replay.playing(); }
    void setPlaying(bool playing) override;
    double speed() const override { return m_replay.speed(); }
    void setSpeed(double factor) override { m_replay.setSpeed(factor); }
    void seek(std::uint64_t timeNs) override;
    void stopAt(std::uint64_t timeNs) override { m_stopNs = timeNs; }
    bool finished() const override { return m_finished; }
    bool takeSeek() override { return std::exchange(m_seekSeen, false); }

    /// At most this many samples per drain, so one frame never stalls on a huge backlog.
    static constexpr std::size_t kMaxSamplesPerDrain = 4096;

private:
    Capabilities capabilitiesAt(std::uint64_t timeNs) const;
    CommandResult refused(const std::string& what) const;

    EventTaps m_taps;
    std::shared_ptr<session::SessionReader> m_reader;
    session::ReplaySource m_replay;
    std::optional<CpuFeatures> m_cpu; ///< decoded once from the session's CPUID snapshot; none when absent
    SourceDescription m_description;
    std::uint64_t m_stopNs = UINT64_MAX;
    bool m_finished = false;
    bool m_seekSeen = false;
};

} // namespace rdt::engine

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AddressTables.h"
#include "PmuBatchTable.h"
#include "SampleTable.h"
#include "SessionFile.h"
#include "SessionTypes.h"
#include "SummaryTable.h"
#include "SweepTable.h"
#include "TelemetryTable.h"
#include "TmaTable.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdt::session {

/// Reads a session file. Opening succeeds whenever anything at all can be read; every problem found on the way
/// (truncated file, damaged table, newer schema, missing -wal) is listed in issues(), in words a user can act
/// on, and the rest is still returned. Only "this is not a session file at all" fails open(). Not thread-safe.
/// It opens the file and reads what is small (meta, machine, groups, events) at once; each larger table has its
/// own reader (SampleTable, SummaryTable, ...), which the queries below hand on to.
class SessionReader {
public:
    SessionReader(const SessionReader&) = delete;
    SessionReader& operator=(const SessionReader&) = delete;
    static Result<std::unique_ptr<SessionReader>> open(const std::string& path, ReaderOptions options = {});
    /// The same over an in-memory image of a file (fuzzing, tests).
    static Result<std::unique_ptr<SessionReader>> openImage(
        const std::vector<std::uint8_t>& bytes, ReaderOptions options = {});

    const SessionMeta& meta() const { return m_meta; }
    const MachineInfo& machine() const { return m_machine; }
    int schemaVersion() const { return m_schemaVersion; }
    bool closedCleanly() const { return m_closedCleanly; }
    std::string stopReason() const { return metaValue("stop_reason"); }
    std::string metaValue(const std::string& key) const;
    const std::map<std::string, std::string>& metaTable() const { return m_metaTable; }

    /// Sample time range (monotonic or simulated ns); 0/0 when there are no samples.
    std::uint64_t firstTimeNs() const { return m_samples.firstNs(); }
    std::uint64_t lastTimeNs() const { return m_samples.lastNs(); }
    /// Origin of the session's time axis (meta.start_mono_ns, or the first sample when missing).
    std::uint64_t originNs() const { return m_samples.originNs(); }
    std::uint64_t sampleCount() const { return m_samples.sampleCount(); }

    const std::vector<SessionGroup>& groups() const { return m_groups; }
    /// Loaded at open (they are small): allocation events, membership snapshots and markers, in time order.
    const std::vector<AllocationChanged>& allocations() const { return m_allocations; }
    const std::vector<MembershipSnapshot>& memberships() const { return m_memberships; }
    const std::vector<Marker>& markers() const { return m_markers; }
    /// The sweeps recorded into the session (table `sweep_steps`, SweepTable), by sweep and step; none in
    /// a file written before the table existed.
    Result<std::vector<SweepStepRow>> sweepSteps();

    using SketchRow = session::SketchRow;
    static constexpr std::uint64_t kSketchBucketNs = 60'000'000'000;
    /// One past the last bucket with sketches: every series' buckets before it are complete (they are written in the
    /// transaction that holds their rows, all series at once). Nothing when the file has none (older files).
    std::optional<std::uint64_t> sketchEnd();
    /// Calls `fn` for each sketch of buckets [fromBucket, toBucket). A malformed one is an error (the caller reads
    /// the rows instead).
    Status forEachSketch(
        std::uint64_t fromBucket, std::uint64_t toBucket, const std::function<bool(const SketchRow&)>& fn);

    /// Calls `fn` for each sample with fromNs <= time < toNs in time order. On a damaged page it stops, records an
    /// issue and returns the error; the samples before it have been delivered. `fn` returns false to stop early.
    Status forEachSample(std::uint64_t fromNs, std::uint64_t toNs, const std::function<bool(const RdtSample&)>& fn);
    /// Time of the first sample at or after `fromNs` (one index look-up); nothing when there is none.
    std::optional<std::uint64_t> nextSampleTime(std::uint64_t fromNs);
    /// The earliest start and latest end time of the PMU batches of `kind` that carry times (an imported
    /// perf.data's records have no RDT samples to say when the recording starts and ends); nullopt when none.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> pmuBatchTimeRange(const std::string& kind);
    /// At most `limit` samples with fromNs <= time < toNs (replay reads in chunks).
    Result<std::vector<RdtSample>> samples(std::uint64_t fromNs, std::uint64_t toNs, std::size_t limit = SIZE_MAX);
    Result<std::vector<SummaryBucket>> summary(
        int resolutionS, std::uint64_t fromNs = 0, std::uint64_t toNs = UINT64_MAX);
    Result<std::vector<TmaInterval>> tma(std::uint64_t fromNs = 0, std::uint64_t toNs = UINT64_MAX);
    /// PERF_PKG_MON rows (table `telemetry_samples`, TelemetryTable) with fromNs <= time < toNs, in time order;
    /// none in a file written before the table existed or without telemetry.
    Result<std::vector<TelemetrySample>> telemetry(std::uint64_t fromNs = 0, std::uint64_t toNs = UINT64_MAX);
    /// PMU batches of `kind` ("" = all) overlapping [fromNs, toNs), decompressed. A damaged batch is skipped
    /// with an issue; the others are returned.
    Result<std::vector<PmuBatch>> pmuBatches(
        const std::string& kind = {}, std::uint64_t fromNs = 0, std::uint64_t toNs = UINT64_MAX);
    /// Every PMU batch of `kind` one at a time in the order it was written (records that must be decoded in file
    /// order, like an imported perf.data's "perf-records"), so memory stays one batch whatever the session's size.
    /// `fn` returns false to stop. Damaged batches are skipped with an issue, as in pmuBatches().
    Status forEachPmuBatch(const std::string& kind, const std::function<bool(PmuBatch&&)>& fn);
    Result<std::vector<AddressMap>> addressMaps();
    Result<std::vector<Symbol>> symbols();

    /// Everything that went wrong while reading, oldest first. Empty for a healthy, cleanly closed file.
    const std::vector<std::string>& issues() const { return m_file.issues(); }
    bool damaged() const { return m_file.damaged(); }
    /// After a pass over the whole session that delivered `delivered` samples: when that is fewer than the
    /// session holds, the file is marked damaged and the loss is reported (an issue and the returned error).
    Status checkWholeSessionRead(std::uint64_t delivered);
    const std::string& path() const { return m_file.path(); }

private:
    SessionReader(std::string path, ReaderOptions options);
    static Result<std::unique_ptr<SessionReader>> finishOpen(
        std::unique_ptr<SessionReader> r, const std::vector<std::uint8_t>& header, std::uint64_t fileSize);
    void checkHeader(const std::vector<std::uint8_t>& header, std::uint64_t fileSize, bool hasWal);
    Status loadSchemaInfo();
    void loadMeta();
    void loadMachine();
    void loadGroups();
    void loadEvents();

    SessionFile m_file; ///< first: the table readers below refer to it
    SampleTable m_samples;
    SummaryTable m_summary;
    PmuBatchTable m_pmu;
    TmaTable m_tma;
    AddressTables m_addresses;
    SweepTable m_sweeps;
    TelemetryTable m_telemetry;
    SessionMeta m_meta;
    MachineInfo m_machine;
    std::map<std::string, std::string> m_metaTable;
    std::vector<SessionGroup> m_groups;
    std::vector<AllocationChanged> m_allocations;
    std::vector<MembershipSnapshot> m_memberships;
    std::vector<Marker> m_markers;
    int m_schemaVersion = 0;
    bool m_closedCleanly = false;
};

} // namespace rdt::session

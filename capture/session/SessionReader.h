// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PrivateSessionCopy.h"
#include "SessionTypes.h"
#include "Sqlite.h"
#include "SummaryAggregator.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdt::session {

struct ReaderOptions {
    /// Cap on SQLite VM work per query, in units of 1000 instructions (0 = none). The fuzzer sets it so a
    /// crafted file cannot make one query run for minutes; real files need none.
    int stepBudget = 0;
};

/// Reads a session file. Opening succeeds whenever anything at all can be read; every problem found on the way
/// (truncated file, damaged table, newer schema, missing -wal) is listed in issues(), in words a user can act
/// on, and the rest is still returned. Only "this is not a session file at all" fails open(). Not thread-safe.
class SessionReader {
public:
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
    std::uint64_t firstTimeNs() const { return m_firstNs; }
    std::uint64_t lastTimeNs() const { return m_lastNs; }
    /// Origin of the session's time axis (meta.start_mono_ns, or the first sample when missing).
    std::uint64_t originNs() const;
    std::uint64_t sampleCount() const { return m_sampleCount; }

    const std::vector<SessionGroup>& groups() const { return m_groups; }
    /// Loaded at open (they are small): allocation events, membership snapshots and markers, in time order.
    const std::vector<AllocationChanged>& allocations() const { return m_allocations; }
    const std::vector<MembershipSnapshot>& memberships() const { return m_memberships; }
    const std::vector<Marker>& markers() const { return m_markers; }
    /// The sweeps recorded into the session (table `sweep_steps`, SessionSweeps.cpp), by sweep and step; none in
    /// a file written before the table existed.
    Result<std::vector<SweepStepRow>> sweepSteps();

    /// One series' minute sketch (`rdt_summary.sketch`, docs/SESSION-FORMAT.md): the valid values of group x domain in
    /// [bucket * 60 s, (bucket + 1) * 60 s) as bucketed percentile sketches, and how many rows it summarizes.
    struct SketchRow {
        std::uint64_t bucket = 0;
        std::string group;
        int domain = 0;
        SeriesSketch sketch; ///< rows, flagged rows and the three sketches
    };
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
    /// PERF_PKG_MON rows (table `telemetry_samples`, SessionTelemetry.cpp) with fromNs <= time < toNs, in time order;
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
    const std::vector<std::string>& issues() const { return m_issues; }
    bool damaged() const { return m_damaged; }
    /// After a pass over the whole session that delivered `delivered` samples: when that is fewer than the
    /// session holds, the file is marked damaged and the loss is reported (an issue and the returned error).
    Status checkWholeSessionRead(std::uint64_t delivered);
    const std::string& path() const { return m_path; }

private:
    SessionReader() = default;
    static Result<std::unique_ptr<SessionReader>> finishOpen(
        std::unique_ptr<SessionReader> r, const std::vector<std::uint8_t>& header, std::uint64_t fileSize);
    void checkHeader(const std::vector<std::uint8_t>& header, std::uint64_t fileSize, bool hasWal);
    Status loadSchemaInfo();
    void loadMeta();
    void loadMachine();
    void loadGroups();
    void loadEvents();
    void loadTimeRange();
    void checkTimeSpan();
    struct ScanState {
        std::uint64_t delivered = 0;
        std::uint64_t lastNs = 0;
        bool any = false;
        bool stopped = false; ///< the callback asked to stop
    };
    Status scanSamples(
        std::uint64_t fromNs, std::uint64_t toNs, const std::function<bool(const RdtSample&)>& fn, ScanState& state);
    std::string groupPath(std::int64_t id);
    /// Steps a pmu_batches query (columns id, kind, start_ns, end_ns, count, codec, raw_size, data) and hands
    /// each readable batch to `fn`; the shared part of pmuBatches() and forEachPmuBatch().
    void stepPmuBatches(Statement& st, const std::function<bool(PmuBatch&&)>& fn);
    void issue(std::string text);
    /// A row with a value of the wrong type or out of range (Statement::rowDamage): reported as damage with
    /// `where` (table and row) and the column, so the caller skips it. False for a good row.
    bool damagedRow(const Statement& st, const std::string& where);
    Error noteFailure(const Error& e, const std::string& what);
    void resetBudget();
    static std::int64_t clampNs(std::uint64_t ns); ///< a time bound as SQLite's signed 64-bit integer

    /// Declared before m_db, so the database closes before the copy it reads is removed.
    std::optional<PrivateSessionCopy> m_copy;
    Database m_db;
    std::string m_path;
    ReaderOptions m_options;
    SessionMeta m_meta;
    MachineInfo m_machine;
    std::map<std::string, std::string> m_metaTable;
    std::map<std::int64_t, std::string> m_groupPaths;
    std::vector<SessionGroup> m_groups;
    std::vector<AllocationChanged> m_allocations;
    std::vector<MembershipSnapshot> m_memberships;
    std::vector<Marker> m_markers;
    std::vector<std::string> m_tables;
    std::vector<std::string> m_issues;
    int m_schemaVersion = 0;
    bool m_closedCleanly = false;
    bool m_damaged = false;
    std::uint64_t m_firstNs = 0;
    std::uint64_t m_lastNs = 0;
    std::uint64_t m_sampleCount = 0;
};

} // namespace rdt::session

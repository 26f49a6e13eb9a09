// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionFileClaim.h"
#include "SessionTypes.h"
#include "Sqlite.h"
#include "SummaryAggregator.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rdt::session {

struct WriterOptions {
    bool overwrite = false; ///< replace an existing session (otherwise creating over a file is refused)
    std::int64_t maxPageCount = 0; ///< tests: PRAGMA max_page_count, to make "disk full" happen on purpose
    int pageSize = 4096; ///< SQLite page size (512..65536, power of two); small only for tiny fuzz seeds
    std::vector<std::string> inputs {}; ///< files the session is made from: never written (SessionFileClaim)
};

/// Writes one session file. Rows go into an open transaction; flush() commits it (the recorder calls it every
/// 500 ms), so a crash loses at most the rows since the last flush. After the first write error the writer is
/// failed: it rolls back the open transaction, keeps what was committed, and every later call returns that
/// error. Not thread-safe: the Recorder owns it on its thread.
class SessionWriter {
public:
    static Result<std::unique_ptr<SessionWriter>> create(
        const std::string& path, const SessionMeta& meta, const MachineInfo& machine, WriterOptions options = {});
    ~SessionWriter();
    SessionWriter(const SessionWriter&) = delete;
    SessionWriter& operator=(const SessionWriter&) = delete;

    Status addSamples(const RdtSampleBatch& batch);
    Status addAllocation(const AllocationChanged& event);
    Status addMembership(const MembershipSnapshot& snapshot);
    Status addMarker(const Marker& marker);
    Status addSweepStep(const SweepStepRow& row);
    Status addTma(const std::vector<TmaInterval>& rows);
    Status addPmuBatch(const PmuBatch& batch);
    Status addAddressMap(const AddressMap& map);
    Status addSymbols(const std::vector<Symbol>& symbols);
    /// Free-form metadata (e.g. "dropped_batches"); lands with the next flush.
    Status setMeta(const std::string& key, const std::string& value);

    /// Commits everything added since the last flush in one transaction, with the summary buckets that are
    /// complete and the per-group counters.
    Status flush();
    /// Final flush (all summary buckets), marks the file closed cleanly with `stopReason`, checkpoints the WAL
    /// into the main file and closes. Safe to call twice and after a failure (then it only closes).
    Status close(const std::string& stopReason = "stopped");

    bool failed() const { return m_error.has_value(); }
    const std::optional<Error>& error() const { return m_error; }
    std::uint64_t committedSamples() const { return m_committedSamples; }
    std::uint64_t pendingSamples() const { return m_pendingSamples; }
    std::uint64_t flushes() const { return m_flushes; }
    const std::string& path() const { return m_db.path(); }

private:
    SessionWriter() = default;
    Status prepareStatements();
    Status begin();
    struct GroupCounters {
        std::int64_t id = 0;
        std::uint64_t first = 0, last = 0, samples = 0;
        bool dirty = false;
    };
    Result<GroupCounters*> group(const std::string& path, std::uint64_t timeNs);
    Result<std::int64_t> groupId(const std::string& path, std::uint64_t timeNs);
    Status writeBuckets(const std::vector<Bucket>& buckets);
    Status initialise(const SessionMeta& meta, const MachineInfo& machine, const WriterOptions& options);
    Status fail(Error e);
    /// After each commit: is PATH-wal still the log this connection writes? (See flush().)
    Status checkWriteAheadLog();
    Status check(Status s) { return s ? s : fail(s.error()); }

    SessionFileClaim m_claim; ///< declared before m_db: the lock outlives the database connection
    Database m_db;
    static constexpr int kRowsPerInsert = 32; ///< multi-row INSERT: per-statement overhead dominates otherwise
    Statement m_insSample, m_insSampleMulti, m_insGroup, m_updGroup, m_insAlloc, m_insMember, m_insMarker, m_insSweep,
        m_insSweepPmu, m_insTelemetry, m_insTma, m_insPmu, m_insMap, m_insSymbol, m_setMeta;
    std::unordered_map<std::string, GroupCounters> m_groups; ///< node-based: pointers stay valid
    const std::string* m_lastGroupPath = nullptr; ///< one-entry cache: a batch lists a group's domains in a row
    GroupCounters* m_lastGroup = nullptr;
    SummaryAggregator m_summary;
    std::optional<Error> m_error;
    bool m_inTransaction = false;
    bool m_closed = false;
    std::uint64_t m_lastTimeNs = 0;
    std::uint64_t m_firstTimeNs = 0;
    bool m_haveTime = false;
    std::uint64_t m_committedSamples = 0;
    std::uint64_t m_pendingSamples = 0;
    std::uint64_t m_flushes = 0;
    std::uint64_t m_walDevice = 0, m_walInode = 0; ///< the -wal file seen after the first commit
};

} // namespace rdt::session

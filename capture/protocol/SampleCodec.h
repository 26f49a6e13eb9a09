// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agent.pb.h"
#include "core/Result.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rdt::protocol {

namespace pb = rdtscope::agent::v1;

/// Upper bound on distinct group names one connection may introduce (resctrl allows far fewer CLOSIDs+RMIDs).
inline constexpr std::size_t kMaxGroupTable = 65536;
/// Upper bound on one group name's length (resctrl paths are short; this only bounds hostile input).
inline constexpr std::size_t kMaxGroupNameBytes = 4096;

/// Upper bound on PERF_PKG_MON rows in one batch and on one event name's length (hostile input only: a machine has
/// a handful of events per package).
inline constexpr std::size_t kMaxTelemetryRows = 1u << 16;
/// Bounds the error text of a group a poll could not read.
inline constexpr std::size_t kMaxUnreadErrorBytes = 4096;
inline constexpr std::size_t kMaxTelemetryEventBytes = 64;

/// Upper bound on distinct (group, domain) series one connection may carry.
inline constexpr std::size_t kMaxSeries = 1u << 18;

/// What both sides remember of one (group, domain) series: the cumulative MBM bytes and the batch time last sent.
struct SeriesState {
    std::uint64_t total = 0;
    std::uint64_t local = 0;
    std::uint64_t timeNs = 0; ///< 0: never sent
};

/// The rate a receiver derives from a series' byte delta over `elapsedNs` (docs/PROTOCOL.md "Sample batches"):
/// delta x 10^9 / elapsed rounded to the nearest whole byte per second, 0 for a delta <= 0 or no elapsed time.
std::uint64_t derivedBps(std::int64_t delta, std::uint64_t elapsedNs);

/// Sender side of docs/PROTOCOL.md "Sample batches": group names become table indexes, cumulative MBM bytes
/// become differences to the previous batch sent on the same connection. Must see every batch it encodes in
/// order: the decoder mirrors its state.
class SampleEncoder {
public:
    void encode(const RdtSampleBatch& batch, std::uint64_t droppedBatches, pb::RdtSampleBatch& out);

private:
    std::unordered_map<std::string, std::uint32_t> m_groups;
    std::map<std::tuple<std::uint32_t, int, int>, SeriesState> m_last; ///< (group, domain, SNC node or -1)
};

struct DecodedSamples {
    RdtSampleBatch batch;
    std::uint64_t droppedBatches = 0;
};

/// Receiver side; every inconsistency (ragged columns, an index outside the table, a table too large) is an
/// Error after which the connection is closed, since the two sides' state no longer agrees.
class SampleDecoder {
public:
    Result<DecodedSamples> decode(const pb::RdtSampleBatch& in);

private:
    std::vector<std::string> m_groups;
    std::map<std::tuple<std::uint32_t, int, int>, SeriesState> m_last; ///< (group, domain, SNC node or -1)
};

} // namespace rdt::protocol

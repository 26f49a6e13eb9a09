// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agent.pb.h"
#include "core/Result.h"
#include "rdt/Sample.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rdt::protocol {

namespace pb = rdtscope::agent::v1;

/// Upper bound on distinct group names one connection may introduce (resctrl allows far fewer CLOSIDs+RMIDs).
inline constexpr std::size_t kMaxGroupTable = 65536;
/// Upper bound on one group name's length (resctrl paths are short; this only bounds hostile input).
inline constexpr std::size_t kMaxGroupNameBytes = 4096;

/// Upper bound on distinct (group, domain) series one connection may carry.
inline constexpr std::size_t kMaxSeries = 1u << 18;

/// Sender side of docs/PROTOCOL.md "Sample batches": group names become table indexes, cumulative MBM bytes
/// become differences to the previous batch sent on the same connection. Must see every batch it encodes in
/// order: the decoder mirrors its state.
class SampleEncoder {
public:
    void encode(const RdtSampleBatch& batch, std::uint64_t droppedBatches, pb::RdtSampleBatch& out);

private:
    std::unordered_map<std::string, std::uint32_t> m_groups;
    std::map<std::pair<std::uint32_t, int>, std::pair<std::uint64_t, std::uint64_t>> m_last;
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
    std::map<std::pair<std::uint32_t, int>, std::pair<std::uint64_t, std::uint64_t>> m_last;
};

} // namespace rdt::protocol

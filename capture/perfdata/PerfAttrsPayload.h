// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The "perf-attrs" payload an imported perf.data stores in its session (see PerfDataSession.h): the events, as
// {u32 attr_bytes; attr[attr_bytes] (kernel layout); u32 nr_ids; u64 ids[nr_ids]} repeated.

#include "core/Result.h"
#include "pmu/RecordDecoder.h"

#include <cstdint>
#include <vector>

namespace rdt::perfdata {

/// The "perf-attrs" payload for a decoder's events (ids from `idsPerEvent`).
std::vector<std::uint8_t> encodeAttrsPayload(
    const pmu::RecordDecoder& decoder, const std::vector<std::vector<std::uint64_t>>& idsPerEvent);
/// Adds the events of a "perf-attrs" payload to `decoder`.
Status decoderFromAttrsPayload(const std::vector<std::uint8_t>& payload, pmu::RecordDecoder& decoder);

} // namespace rdt::perfdata

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Writes perf records byte-exact, in the kernel's layout (include/uapi/linux/perf_event.h; field order of
// PERF_RECORD_SAMPLE as perf_output_sample writes it; 8-byte aligned; sample_id trailers when sample_id_all), so
// the simulated PMU's output goes through the same ring reader and decoder as the kernel's.

#include "core/Result.h"
#include "pmu/PerfRecord.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rdt::pmu {

class RecordWriter {
public:
    /// PERF_RECORD_SAMPLE for `attr`. Fields this writer cannot produce (READ, RAW, AUX, non-empty regs/stack) are
    /// an error rather than a silently wrong record.
    static Status sample(const EventAttr& attr, const Sample& s, std::vector<std::byte>& out);
    /// PERF_RECORD_MMAP2 (inode form) with a sample_id trailer built from `id` when attr.sample_id_all.
    static void mmap2(
        const EventAttr& attr, const MmapRecord& m, const SampleIdTrailer& id, std::vector<std::byte>& out);
    /// PERF_RECORD_COMM
    static void comm(const EventAttr& attr, std::uint32_t pid, std::uint32_t tid, std::string_view comm, bool exec,
        const SampleIdTrailer& id, std::vector<std::byte>& out);
    /// PERF_RECORD_THROTTLE / UNTHROTTLE
    static void throttle(const EventAttr& attr, bool unthrottle, std::uint64_t time, std::uint64_t id,
        const SampleIdTrailer& trailer, std::vector<std::byte>& out);
    /// The sample_id trailer bytes for attr.sample_type (empty unless sample_id_all).
    static void sampleId(const EventAttr& attr, const SampleIdTrailer& id, std::vector<std::byte>& out);
};

} // namespace rdt::pmu

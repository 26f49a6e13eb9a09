// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An imported perf.data as a session file (capture/session), so replay and every view work on it.
//
// What is stored (session tables, see capture/session):
//  - meta: source "import:<file name>", simulated = false, host/kernel/command line from the perf.data features,
//    start_mono_ns = the first sample's time (file order), perfdata_last_sample_ns = the latest sample's time,
//    perfdata_cpuid = perf's HEADER_CPUID ("GenuineIntel,6,85,4"), perfdata_samples = samples read;
//  - machine: description "<cpudesc>, <n> CPUs (perf <version>)", topology = the core sibling lists;
//  - address_maps: every executable MMAP/MMAP2 (path as recorded, build-id hex when known);
//  - pmu_batches kind "perf-attrs" (one): the events, as {u32 attr_bytes; attr[attr_bytes] (kernel layout);
//    u32 nr_ids; u64 ids[nr_ids]} repeated;
//  - pmu_batches kind "perf-records": the kernel records in file order (raw perf_event_header + body, exactly as
//    in the perf.data, decompressed), about 1 MiB per batch, time range from the records' sample times, count =
//    samples inside. Decode them with a RecordDecoder built by decoderFromAttrsPayload() (PerfAttrsPayload.h);
//    importSessionRecords() (PerfDataSessionRecords.h) does, and aggregates them as importPerfData() aggregates
//    the file.

#include "PerfDataImport.h"
#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rdt::perfdata {

struct SessionImportResult {
    ImportResult import;
    std::uint64_t batches = 0;
    std::uint64_t recordsStored = 0;
    std::uint64_t addressMaps = 0;
};

/// Imports `perfData` (aggregating as importPerfData does) and writes the session file `sessionPath`.
Result<SessionImportResult> importToSession(const std::string& perfData, const std::string& sessionPath,
    const ImportOptions& options = {}, bool overwrite = false);

} // namespace rdt::perfdata

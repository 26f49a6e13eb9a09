// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading back what importToSession (PerfDataSession.h) stored: the events ("perf-attrs"), the raw records
// ("perf-records", in file order) and the executable mappings with their build-ids, through the same aggregation
// as a perf.data file.

#include "PerfDataImport.h"
#include "core/Result.h"
#include "session/SessionReader.h"

namespace rdt::perfdata {

/// Whether `reader` holds an imported perf.data file's records.
bool holdsPerfRecords(session::SessionReader& reader);
/// The records an import stored in `reader`, decoded and aggregated like importPerfData() aggregates the file
/// (options.symfs, keepSample, onRecord and topN apply; stats count what was decoded; header holds the events and
/// the build-ids of the recorded address maps). One batch in memory at a time.
Result<ImportResult> importSessionRecords(session::SessionReader& reader, const ImportOptions& options = {});

} // namespace rdt::perfdata

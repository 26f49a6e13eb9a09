// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfDataImport.h"

#include "RecordAggregator.h"

namespace rdt::perfdata {

Result<ImportResult> importPerfData(const std::string& path, const ImportOptions& options)
{
    // "-" reads a pipe-mode stream from stdin (`perf record -o - ... | rdtscope-cli import -`).
    auto reader = path == "-" ? PerfDataReader::openPipe(0) : PerfDataReader::open(path);
    if (!reader) return reader.error();
    const auto& header = (*reader)->header();
    RecordAggregator aggregator(options, header);
    auto stats = (*reader)->read(
        [&](const pmu::DecodedRecord& rec) {
            aggregator.add(rec);
            return true;
        },
        options.read);
    if (!stats) return stats.error();
    ImportResult out = aggregator.finish();
    out.pipeMode = (*reader)->pipeMode();
    out.stats = std::move(stats).value();
    out.header = header;
    return out;
}

} // namespace rdt::perfdata

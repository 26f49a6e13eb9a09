// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfDataImport.h"

#include "ParallelRecordWalk.h"
#include "RecordAggregator.h"

#include <cstdlib>
#include <unistd.h>

namespace rdt::perfdata {

namespace {
bool useBothCores(unsigned threads)
{
    if (threads != 0) return threads > 1;
    double load = 0;
    const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 1 && ::getloadavg(&load, 1) == 1 && load < static_cast<double>(cpus) - 1.0;
}
} // namespace

Result<ImportResult> importPerfData(const std::string& path, const ImportOptions& options)
{
    // "-" reads a pipe-mode stream from stdin (`perf record -o - ... | rdtscope-cli import -`).
    auto reader = path == "-" ? PerfDataReader::openPipe(0) : PerfDataReader::open(path);
    if (!reader) return reader.error();
    const auto& header = (*reader)->header();
    RecordAggregator aggregator(options, header);
    auto& r = **reader;
    Result<ReadStats> stats = ReadStats {};
    if (useBothCores(options.threads) && r.canReadSharded(options.read) && aggregator.shardable(r.decoder())) {
        // Both cores read and decode; samples are tallied per thread and merged (the same figures as one pass).
        aggregator.makeShards(ParallelRecordWalk::Threads);
        stats = r.readSharded([&](const pmu::DecodedRecord& rec) { aggregator.add(rec, r.position()); },
            [&](unsigned thread, const pmu::DecodedRecord& sample, std::uint64_t at) {
                aggregator.addShardSample(thread, sample, at);
            },
            options.read);
    } else {
        stats = r.read(
            [&](const pmu::DecodedRecord& rec) {
                aggregator.add(rec, r.position());
                return true;
            },
            options.read);
    }
    if (!stats) return stats.error();
    ImportResult out = aggregator.finish();
    out.pipeMode = (*reader)->pipeMode();
    out.stats = std::move(stats).value();
    out.header = header;
    return out;
}

} // namespace rdt::perfdata

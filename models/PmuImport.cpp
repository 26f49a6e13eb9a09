// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuImport.h"

#include "core/BoundedFile.h"
#include "perfdata/BranchStackOrigin.h"
#include "perfdata/PerfDataReader.h"
#include "perfdata/SymbolSearch.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace rdt::pmu {

bool looksLikePerfData(const std::string& path)
{
    // Only a regular file is read (a FIFO would block the GUI's start-up); the session reader then says what
    // anything else is.
    const auto magic = readFileHead(path, 8, "perf.data file");
    return magic && *magic == std::string_view("PERFILE2", 8);
}

Result<PmuData> importPerfData(const std::string& path, const PmuImportOptions& options)
{
    auto reader = perfdata::PerfDataReader::open(path);
    if (!reader) return reader.error();
    PmuData data;
    data.kind = PmuSourceKind::Imported;
    data.name = std::filesystem::path(path).filename().string();
    // The CLI's lookup (symfs path, basename, then GNU build-id), so both name the same functions.
    perfdata::SymbolSearch search(options.symbolDirs);
    const auto& header = (*reader)->header();
    perfdata::ReadOptions ro;
    ro.progress = options.progress;
    ro.progressEvery = 1u << 20;
    auto stats = (*reader)->read(
        [&](const DecodedRecord& r) {
            if (r.kind == RecordKind::Mmap) { // the CLI's rule: the binary, or none (another build, another arch)
                const auto local = search.localMapping(r.mmap, header);
                data.symbols->addMapping(local.mapping.pid, local.mapping, local.binaryPresent);
            } else {
                data.symbols->onRecord(r);
            }
            if (r.kind == RecordKind::Sample) {
                if (r.attr && r.sample.has(perf::SampleBranchStack) && data.branches.empty())
                    data.branchSource = perfdata::branchStackSource(*r.attr, header);
                addSample(data, r.sample, r.attr);
            }
            return true;
        },
        ro);
    if (!stats) return stats.error();
    if (stats->cancelled)
        return errnoError(ECANCELED, "import of " + path + " cancelled", "open the file again to load it");
    data.lost = stats->lost + stats->lostSamples;
    if (stats->truncated) data.notes.push_back("the file is truncated: the records up to the cut are shown");
    if (stats->decodeErrors)
        data.notes.push_back(std::to_string(stats->decodeErrors) + " records did not decode and were skipped");
    for (const auto& w : stats->warnings)
        data.notes.push_back(w);
    for (const auto& w : (*reader)->header().warnings)
        data.notes.push_back(w);
    return data;
}

} // namespace rdt::pmu

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the PMU GUI tests: fixture paths, the symbol directory for propeller_sample_1 (perf's --symfs layout)
// and the oracle figures.

#include "perfdata/PerfDataReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

#include <map>

namespace pmutest {

inline QString fixture(const char* name) { return QStringLiteral(RDTSCOPE_TEST_DATA "/perf/") + QLatin1String(name); }

/// `perf report -i propeller_sample_1.perfdata --symfs DIR --stdio --no-children --no-branch-stack -F
/// overhead,sample,sym` (perf 6.1) prints "51.04%  1901  [.] main" first: main is the hottest function by samples.
constexpr const char* kPropellerHottest = "main";
constexpr unsigned kPropellerHottestSamples = 1901;
constexpr unsigned kPropellerSamples = 3740;

/// Copies propeller_sample_1.bin to DIR/propeller_sample_1.bin.gen, the name the MMAP record gives it.
inline bool makeSymbolDir(const QTemporaryDir& dir)
{
    const QString target = dir.filePath(QStringLiteral("propeller_sample_1.bin.gen"));
    return QFile::exists(target) || QFile::copy(fixture("propeller_sample_1.bin"), target);
}

/// The decoder's own count of load samples per data-source level in a perf.data file (independent of PmuSession).
inline std::map<rdt::pmu::MemLevel, std::uint64_t> decoderLevels(const QString& path, std::uint64_t* samples)
{
    std::map<rdt::pmu::MemLevel, std::uint64_t> levels;
    *samples = 0;
    auto reader = rdt::perfdata::PerfDataReader::open(path.toStdString());
    if (!reader)
        return levels;
    (void)(*reader)->read([&](const rdt::pmu::DecodedRecord& r) {
        if (r.kind == rdt::pmu::RecordKind::Sample) {
            ++*samples;
            levels[r.sample.dataSource().level()]++;
        }
        return true;
    });
    return levels;
}

} // namespace pmutest

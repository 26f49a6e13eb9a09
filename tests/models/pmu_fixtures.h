// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the PMU GUI tests: fixture paths, the symbol directory for propeller_sample_1 (perf's --symfs layout)
// and the oracle figures.

#include "engine/CaptureService.h"
#include "perfdata/PerfDataReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

#include <map>
#include <string>

#include <unistd.h>

namespace pmutest {

inline QString fixture(const char* name)
{
    return QStringLiteral(RDTSCOPE_TEST_DATA "/perf/") + QLatin1String(name);
}

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
    if (!reader) return levels;
    (void)(*reader)->read([&](const rdt::pmu::DecodedRecord& r) {
        if (r.kind == rdt::pmu::RecordKind::Sample) {
            ++*samples;
            levels[r.sample.dataSource().level()]++;
        }
        return true;
    });
    return levels;
}

/// The engine's own answer to a live capture of `kind` (all processes, or this one), the oracle of what the GUI says:
/// empty when it starts (it is stopped at once), else its reason and advice. Attaching to this process instead of
/// launching a command asks for the same recipes without starting anything.
inline std::string engineRefusal(rdt::engine::PmuCaptureKind kind, bool systemWide)
{
    rdt::engine::ServiceOptions options;
    options.openRdt = false;
    auto service = rdt::engine::CaptureService::open(options);
    if (!service) return service.error().toString();
    rdt::engine::PmuRequest request;
    request.kind = kind;
    request.systemWide = systemWide;
    if (!systemWide) request.pids.push_back(static_cast<std::uint32_t>(::getpid()));
    const auto started = (*service)->startPmu(request);
    if (!started.result.ok) return started.result.toString();
    (void)(*service)->stopPmu(started.info.id);
    return {};
}

} // namespace pmutest

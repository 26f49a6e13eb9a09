// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// perf.data layout constants (linux tools/perf/Documentation/perf.data-file-format.txt, tools/perf/util/header.h).

#include <cstdint>
#include <string>

namespace rdt::perfdata {

constexpr std::uint64_t MagicLE = 0x32454c4946524550ull; ///< "PERFILE2" read as a little-endian u64
constexpr std::uint64_t MagicBE = 0x50455246494c4532ull; ///< the same file written on a big-endian host
constexpr std::uint64_t PipeHeaderSize = 16; ///< {magic, size=16}
constexpr std::uint64_t FileHeaderSize = 104; ///< magic, size, attr_size, attrs, data, event_types, features[4]
constexpr unsigned FeatureBits = 256;

/// struct perf_file_section
struct FileSection {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

/// enum HEADER_* feature ids (bit numbers in adds_features).
enum Feature : unsigned {
    FeatReserved = 0,
    FeatTracingData = 1,
    FeatBuildId = 2,
    FeatHostname = 3,
    FeatOsRelease = 4,
    FeatVersion = 5,
    FeatArch = 6,
    FeatNrCpus = 7,
    FeatCpuDesc = 8,
    FeatCpuId = 9,
    FeatTotalMem = 10,
    FeatCmdline = 11,
    FeatEventDesc = 12,
    FeatCpuTopology = 13,
    FeatNumaTopology = 14,
    FeatBranchStack = 15,
    FeatPmuMappings = 16,
    FeatGroupDesc = 17,
    FeatAuxtrace = 18,
    FeatStat = 19,
    FeatCache = 20,
    FeatSampleTime = 21,
    FeatMemTopology = 22,
    FeatClockId = 23,
    FeatDirFormat = 24,
    FeatBpfProgInfo = 25,
    FeatBpfBtf = 26,
    FeatCompressed = 27,
    FeatCpuPmuCaps = 28,
    FeatClockData = 29,
    FeatHybridTopology = 30,
    FeatPmuCaps = 31,
    FeatLastKnown = 32,
};

/// "cmdline", "build_id", ... or "feature 40".
std::string featureName(unsigned feature);

/// header.misc bit on HEADER_BUILD_ID records: the build-id `size` byte is valid (perf 5.10+).
constexpr std::uint16_t MiscBuildIdSize = 1u << 15;

} // namespace rdt::perfdata

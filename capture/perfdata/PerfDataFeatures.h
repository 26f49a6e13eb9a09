// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PerfDataFormat.h"
#include "core/Result.h"
#include "pmu/PerfRecord.h"

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace rdt::perfdata {

/// A binary's build-id as perf stored it: `data` holds up to 20 bytes (older perf pads shorter ids with zeros to
/// 20 and has no size byte; then `size` is 20 and the padding is in `data`).
struct BuildId {
    std::uint8_t data[20] = {};
    std::uint8_t size = 0;

    std::string hex() const; ///< `size` bytes, trailing zero padding of an unsized id trimmed to the binary's own
    /// Matches the build-id read from a binary (its own length): the common prefix is equal and any extra bytes
    /// on our side are zero padding (propeller_sample_1: an 8-byte id padded to 20).
    bool matches(std::span<const std::uint8_t> binaryId) const;
};

/// One HEADER_BUILD_ID entry (struct perf_record_header_build_id).
struct BuildIdEntry {
    std::uint32_t pid = 0;
    std::uint16_t misc = 0; ///< cpumode (kernel / user / guest)
    BuildId id;
    std::string filename;
};

/// One HEADER_EVENT_DESC entry: an event's attr, its name (as perf printed it) and its sample ids; unit and scale
/// come only from EVENT_UPDATE records (pipe mode).
struct EventDesc {
    pmu::EventAttr attr;
    std::string name;
    std::vector<std::uint64_t> ids;
    std::string unit;
    double scale = 1.0;
};

/// HEADER_GROUP_DESC entry.
struct GroupDesc {
    std::string name;
    std::uint32_t leaderIndex = 0;
    std::uint32_t members = 0;
};

/// HEADER_CPU_TOPOLOGY
struct CpuTopology {
    std::vector<std::string> coreSiblings; ///< per package, cpu lists like "0-3"
    std::vector<std::string> threadSiblings; ///< per core
    struct Cpu {
        std::uint32_t coreId = 0, socketId = 0;
    };
    std::vector<Cpu> cpus; ///< present when perf wrote core/socket ids (4.x+)
    std::vector<std::string> dieSiblings; ///< perf 5.4+
};

/// One feature section as read: its id, its size, and whether this reader interprets it (the others are skipped
/// by their size: tracing data, BPF program info and BTF, ...).
struct FeatureSection {
    unsigned id = 0;
    std::uint64_t bytes = 0;
    bool interpreted = false;
};

/// HEADER_CACHE entry (struct cpu_cache_level, perf util/header.c write_cache).
struct CacheLevel {
    std::uint32_t level = 0, lineSize = 0, sets = 0, ways = 0;
    std::string type, size, map; ///< "Data", "32K", "0-1"
};

/// What the feature sections say about the machine and the recording.
struct HeaderInfo {
    std::bitset<FeatureBits> features; ///< adds_features (file mode) / HEADER_FEATURE records seen (pipe mode)
    std::string hostname, osRelease, version, arch, cpuDesc, cpuId;
    std::optional<std::uint32_t> nrCpusAvailable, nrCpusOnline;
    std::optional<std::uint64_t> totalMemKb;
    std::vector<std::string> cmdline;
    std::vector<EventDesc> events;
    std::vector<GroupDesc> groups;
    CpuTopology topology;
    std::vector<BuildIdEntry> buildIds;
    bool branchStack = false; ///< HEADER_BRANCH_STACK: the recording has branch stacks
    std::vector<std::pair<std::uint32_t, std::string>> pmuMappings; ///< HEADER_PMU_MAPPINGS: attr type -> PMU name
    std::optional<std::uint32_t>
        compressionLevel; ///< HEADER_COMPRESSED (version, type 1 = zstd, level, ratio, mmap_len)
    std::optional<std::pair<std::uint64_t, std::uint64_t>> sampleTime; ///< HEADER_SAMPLE_TIME: first, last (ns)
    std::vector<CacheLevel> caches; ///< HEADER_CACHE
    std::vector<unsigned> skippedFeatures; ///< present but not interpreted (tracing data, BPF info, ...)
    std::vector<FeatureSection> sections; ///< every feature section met, in order
    std::vector<std::string> warnings; ///< features that were malformed (the rest of the file is still read)

    /// The build-id perf recorded for a path ("" -> none).
    const BuildIdEntry* buildIdFor(const std::string& filename) const;
    /// The PMU an attr type belongs to ("cpu", "cpu_core", "cs_etm", "ibs_op"; "" when not recorded).
    std::string pmuName(std::uint32_t attrType) const;
    /// "cmdline" line as one string.
    std::string commandLine() const;
};

/// Parses one feature section's bytes into `info`. A malformed section adds a warning and returns an error.
Status parseFeature(unsigned feature, std::span<const std::byte> bytes, HeaderInfo& info);

/// Parses a run of perf_record_header_build_id records (HEADER_BUILD_ID section, or one in-band record).
Status parseBuildIds(std::span<const std::byte> bytes, std::vector<BuildIdEntry>& out);

} // namespace rdt::perfdata

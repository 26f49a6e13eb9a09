// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Writes large, valid file-mode perf.data files by replaying a real recording's samples: the source's attrs,
// ids and non-sample records are kept, its SAMPLE records are repeated with timestamps shifted forward each
// round, a FINISHED_ROUND is written about every MiB (as `perf record` does after each pass over its buffers, so
// perf's ordered-events queue stays bounded), and the feature sections are copied with their offsets rewritten.

#include "core/MappedRegion.h"
#include "core/Result.h"
#include "pmu/PerfRecord.h"
#include "pmu/RecordDecoder.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace rdt::bench {

struct GeneratedFile {
    std::uint64_t bytes = 0;
    std::uint64_t samples = 0;
    std::uint64_t rounds = 0;
};

inline Result<GeneratedFile> writeReplayedPerfData(
    const std::string& source, const std::string& outPath, std::uint64_t targetBytes)
{
    auto map = MappedRegion::mapFileReadOnly(source);
    if (!map)
        return map.error();
    const auto* p = static_cast<const std::byte*>(map->data());
    const std::size_t size = map->size();
    auto u64 = [&](std::size_t off) {
        std::uint64_t v;
        std::memcpy(&v, p + off, 8);
        return v;
    };
    if (size < 104 || u64(8) != 104)
        return makeError(source + ": not a file-mode perf.data");
    const std::uint64_t attrSize = u64(16), attrsOff = u64(24), dataOff = u64(40), dataSize = u64(48);
    if (dataOff + dataSize > size || attrsOff + attrSize - 16 > size)
        return makeError(source + ": truncated");
    auto attr = pmu::parseEventAttr({ p + attrsOff, static_cast<std::size_t>(attrSize - 16) });
    if (!attr)
        return attr.error();
    const std::uint64_t t = attr->sampleType;
    if (!(t & pmu::perf::SampleTime))
        return makeError(source + ": samples have no TIME");
    const std::size_t timeOff = 8
        + 8 * static_cast<std::size_t>(std::popcount(t & (pmu::perf::SampleIdentifier | pmu::perf::SampleIp | pmu::perf::SampleTid)));

    std::vector<std::pair<std::size_t, std::uint16_t>> samples; // offset, size
    std::uint64_t firstTime = UINT64_MAX, lastTime = 0;
    std::ofstream out(outPath, std::ios::binary | std::ios::trunc);
    if (!out)
        return errnoError(errno, "cannot write " + outPath);
    out.write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(dataOff)); // header, attrs, ids
    GeneratedFile g;
    std::uint64_t written = 0, sinceRound = 0;
    const std::byte round[8] = { std::byte { 68 }, {}, {}, {}, {}, {}, std::byte { 8 }, {} }; // FINISHED_ROUND
    auto emit = [&](const std::byte* rec, std::size_t n) {
        out.write(reinterpret_cast<const char*>(rec), static_cast<std::streamsize>(n));
        written += n;
        sinceRound += n;
        if (sinceRound >= (1u << 20)) {
            out.write(reinterpret_cast<const char*>(round), 8);
            written += 8;
            sinceRound = 0;
            ++g.rounds;
        }
    };
    for (std::size_t at = dataOff; at + 8 <= dataOff + dataSize;) {
        std::uint32_t type;
        std::uint16_t rs;
        std::memcpy(&type, p + at, 4);
        std::memcpy(&rs, p + at + 6, 2);
        if (rs < 8 || at + rs > dataOff + dataSize)
            break;
        if (type == pmu::perf::RecordSample && rs >= timeOff + 8) {
            samples.emplace_back(at, rs);
            const std::uint64_t time = u64(at + timeOff);
            firstTime = std::min(firstTime, time);
            lastTime = std::max(lastTime, time);
            ++g.samples;
        }
        emit(p + at, rs);
        at += rs;
    }
    if (samples.empty())
        return makeError(source + ": no samples to replay");
    std::vector<std::byte> rec;
    const std::uint64_t span = lastTime - firstTime + 1;
    for (std::uint64_t r = 1; written < targetBytes; ++r)
        for (const auto& [at, rs] : samples) {
            rec.assign(p + at, p + at + rs);
            const std::uint64_t time = u64(at + timeOff) + r * span;
            std::memcpy(rec.data() + timeOff, &time, 8);
            emit(rec.data(), rs);
            ++g.samples;
            if (written >= targetBytes)
                break;
        }
    // Feature index and sections, offsets rewritten for the new data size.
    std::uint64_t features[4];
    std::memcpy(features, p + 72, sizeof features);
    std::size_t nFeat = 0;
    for (auto w : features)
        nFeat += static_cast<std::size_t>(std::popcount(w));
    const std::uint64_t oldIndex = dataOff + dataSize, newIndex = dataOff + written;
    std::uint64_t next = newIndex + 16 * nFeat;
    std::vector<std::uint64_t> index;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> blobs;
    for (std::size_t i = 0; i < nFeat && oldIndex + 16 * (i + 1) <= size; ++i) {
        const std::uint64_t off = u64(oldIndex + 16 * i), len = u64(oldIndex + 16 * i + 8);
        index.push_back(next);
        index.push_back(len);
        blobs.emplace_back(off, len);
        next += len;
    }
    out.write(reinterpret_cast<const char*>(index.data()), static_cast<std::streamsize>(index.size() * 8));
    for (const auto& [off, len] : blobs)
        if (off + len <= size)
            out.write(reinterpret_cast<const char*>(p + off), static_cast<std::streamsize>(len));
    // Patch the data section size in the header.
    out.seekp(48);
    out.write(reinterpret_cast<const char*>(&written), 8);
    out.close();
    if (!out)
        return errnoError(errno, "writing " + outPath + " failed", "is the disk full?");
    g.bytes = next;
    return g;
}

} // namespace rdt::bench

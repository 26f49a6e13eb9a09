// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a perf.data image of any shape (file or pipe mode, compressed or not) through the reader and the
// record decoder. Anything but a clean error or a clean read is a bug.

#include "perfdata/PerfDataReader.h"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    auto reader = rdt::perfdata::PerfDataReader::fromBytes(bytes);
    if (!reader)
        return 0;
    std::uint64_t sink = 0;
    auto stats = (*reader)->read([&](const rdt::pmu::DecodedRecord& r) {
        sink += r.header.type;
        if (r.kind == rdt::pmu::RecordKind::Sample) {
            sink += r.sample.ip + r.sample.branches.size() + r.sample.callchain.size() + r.sample.raw.size();
            for (const auto& b : r.sample.branches)
                sink += b.from ^ b.cycles();
            for (auto v : r.sample.raw)
                sink += static_cast<std::uint8_t>(v);
        } else if (r.kind == rdt::pmu::RecordKind::Mmap) {
            sink += r.mmap.filename.size();
        }
        return true;
    });
    (void)stats;
    return static_cast<int>(sink & 0);
}

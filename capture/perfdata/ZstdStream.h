// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstddef>
#include <span>
#include <vector>

namespace rdt::perfdata {

/// One zstd decompression stream across all PERF_RECORD_COMPRESSED payloads of a file (perf compresses with one
/// context per mmap buffer, and a frame may continue in the next record).
class ZstdStream {
public:
    ZstdStream();
    ~ZstdStream();
    ZstdStream(const ZstdStream&) = delete;
    ZstdStream& operator=(const ZstdStream&) = delete;
    /// Appends the decompressed bytes of `in` to `out`. `limit` bounds how much one payload may expand to.
    Status decompress(std::span<const std::byte> in, std::vector<std::byte>& out, std::size_t limit = 256u << 20);

private:
    void* m_ctx = nullptr;
};

} // namespace rdt::perfdata

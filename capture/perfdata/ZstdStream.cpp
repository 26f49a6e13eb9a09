// SPDX-License-Identifier: GPL-3.0-or-later
#include "ZstdStream.h"

#include <string>
#include <zstd.h>

namespace rdt::perfdata {

ZstdStream::ZstdStream()
    : m_ctx(ZSTD_createDStream())
{
    if (m_ctx) ZSTD_initDStream(static_cast<ZSTD_DStream*>(m_ctx));
}

ZstdStream::~ZstdStream()
{
    ZSTD_freeDStream(static_cast<ZSTD_DStream*>(m_ctx));
}

Status ZstdStream::decompress(std::span<const std::byte> in, std::vector<std::byte>& out, std::size_t limit)
{
    if (!m_ctx) return makeError("zstd: cannot create a decompression context", "out of memory?");
    auto* ctx = static_cast<ZSTD_DStream*>(m_ctx);
    ZSTD_inBuffer input { in.data(), in.size(), 0 };
    const std::size_t start = out.size();
    const std::size_t chunk = ZSTD_DStreamOutSize();
    while (true) {
        if (out.size() - start > limit)
            return makeError("zstd: a compressed record expands beyond " + std::to_string(limit >> 20) + " MiB",
                "the file is corrupt");
        const std::size_t at = out.size();
        out.resize(at + chunk);
        ZSTD_outBuffer output { out.data() + at, chunk, 0 };
        const std::size_t rc = ZSTD_decompressStream(ctx, &output, &input);
        out.resize(at + output.pos);
        if (ZSTD_isError(rc)) {
            ZSTD_initDStream(ctx);
            return makeError(std::string("zstd: ") + ZSTD_getErrorName(rc) + " in a PERF_RECORD_COMPRESSED payload",
                "the file is corrupt or truncated");
        }
        // Done when all input is consumed and the decoder did not fill the whole output (nothing buffered).
        if (input.pos == input.size && output.pos < chunk) return {};
    }
}

} // namespace rdt::perfdata

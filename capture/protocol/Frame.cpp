// SPDX-License-Identifier: GPL-3.0-or-later
#include "Frame.h"

#include <zstd.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace rdt::protocol {

struct FrameEncoder::Ctx {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ~Ctx() { ZSTD_freeCCtx(cctx); }
};

struct FrameDecoder::Ctx {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    ~Ctx() { ZSTD_freeDCtx(dctx); }
};

namespace {
void putHeader(std::vector<std::uint8_t>& out, std::size_t bodyBytes, std::uint8_t flags)
{
    const auto n = static_cast<std::uint32_t>(bodyBytes + 1);
    const std::uint8_t h[kFrameHeaderBytes] = { static_cast<std::uint8_t>(n >> 24), static_cast<std::uint8_t>(n >> 16),
        static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n), flags };
    out.insert(out.end(), h, h + kFrameHeaderBytes);
}
}

std::string byteSizeText(std::uint64_t bytes)
{
    char buf[48];
    if (bytes >= (1u << 20))
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1u << 20));
    else if (bytes >= 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024);
    else
        std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
    return buf;
}

FrameEncoder::FrameEncoder()
    : m_ctx(std::make_unique<Ctx>())
{
    // Level 1: sample batches are small and frequent; the agent's CPU budget matters more than the last few %.
    ZSTD_CCtx_setParameter(m_ctx->cctx, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(m_ctx->cctx, ZSTD_c_contentSizeFlag, 1);
}

FrameEncoder::~FrameEncoder() = default;

bool FrameEncoder::append(std::span<const std::uint8_t> body, bool mayCompress, std::vector<std::uint8_t>& out)
{
    m_raw += body.size() + kFrameHeaderBytes;
    if (mayCompress && body.size() >= kCompressMinBytes) {
        m_scratch.resize(ZSTD_compressBound(body.size()));
        const std::size_t n = ZSTD_compress2(m_ctx->cctx, m_scratch.data(), m_scratch.size(), body.data(), body.size());
        if (!ZSTD_isError(n) && n <= body.size() - body.size() / 8) {
            putHeader(out, n, kFrameZstd);
            out.insert(out.end(), m_scratch.begin(), m_scratch.begin() + static_cast<std::ptrdiff_t>(n));
            m_wire += n + kFrameHeaderBytes;
            return true;
        }
    }
    putHeader(out, body.size(), 0);
    out.insert(out.end(), body.begin(), body.end());
    m_wire += body.size() + kFrameHeaderBytes;
    return false;
}

FrameDecoder::FrameDecoder(std::uint32_t maxFrameBytes)
    : m_ctx(std::make_unique<Ctx>())
    , m_max(maxFrameBytes)
{ }

FrameDecoder::~FrameDecoder() = default;

std::size_t FrameDecoder::wanted() const
{
    const std::size_t have = buffered();
    if (have < kFrameHeaderBytes) return kFrameHeaderBytes - have;
    const std::uint8_t* p = m_buf.data() + m_pos;
    const std::size_t len
        = (std::size_t { p[0] } << 24) | (std::size_t { p[1] } << 16) | (std::size_t { p[2] } << 8) | p[3];
    const std::size_t total = 4 + std::min<std::size_t>(len, std::size_t { m_max } + 1);
    return total > have ? total - have : 0;
}

void FrameDecoder::feed(std::span<const std::uint8_t> bytes)
{
    if (m_pos > 0 && m_pos == m_buf.size()) {
        m_buf.clear();
        m_pos = 0;
    } else if (m_pos > 65536 && m_pos * 2 > m_buf.size()) {
        m_buf.erase(m_buf.begin(), m_buf.begin() + static_cast<std::ptrdiff_t>(m_pos));
        m_pos = 0;
    }
    m_buf.insert(m_buf.end(), bytes.begin(), bytes.end());
}

Result<std::optional<std::vector<std::uint8_t>>> FrameDecoder::next()
{
    const std::size_t have = buffered();
    if (have < kFrameHeaderBytes) return std::optional<std::vector<std::uint8_t>> {};
    const std::uint8_t* p = m_buf.data() + m_pos;
    const std::uint32_t len = (std::uint32_t { p[0] } << 24) | (std::uint32_t { p[1] } << 16)
        | (std::uint32_t { p[2] } << 8) | std::uint32_t { p[3] };
    const std::uint8_t flags = p[4];
    if (len == 0) return makeError("protocol error: a frame of length 0 (every frame has a flags byte)");
    if (len - 1 > m_max)
        return makeError(
            "protocol error: a frame of " + byteSizeText(len - 1) + " exceeds the limit of " + byteSizeText(m_max),
            "the peer is not an rdtscope agent or client of this version, or it is misbehaving");
    if ((flags & ~kFrameZstd) != 0)
        return makeError("protocol error: unknown frame flags 0x" + std::to_string(flags),
            "the peer speaks a newer frame format; use the same rdtscope release on both sides");
    if (have < 4 + std::size_t { len }) return std::optional<std::vector<std::uint8_t>> {};
    const std::uint8_t* body = p + kFrameHeaderBytes;
    const std::size_t bodyBytes = len - 1;
    m_pos += 4 + std::size_t { len };
    if (!(flags & kFrameZstd)) return std::optional(std::vector<std::uint8_t>(body, body + bodyBytes));

    const unsigned long long decoded = ZSTD_getFrameContentSize(body, bodyBytes);
    if (decoded == ZSTD_CONTENTSIZE_ERROR || decoded == ZSTD_CONTENTSIZE_UNKNOWN)
        return makeError("protocol error: a compressed frame without a valid zstd header");
    if (decoded > m_max)
        return makeError("protocol error: a compressed frame expands to " + byteSizeText(decoded)
            + ", more than the limit of " + byteSizeText(m_max));
    std::vector<std::uint8_t> out(static_cast<std::size_t>(decoded));
    const std::size_t n = ZSTD_decompressDCtx(m_ctx->dctx, out.data(), out.size(), body, bodyBytes);
    if (ZSTD_isError(n) || n != decoded)
        return makeError(std::string("protocol error: a compressed frame does not decompress (")
            + (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short") + ")");
    return std::optional(std::move(out));
}

} // namespace rdt::protocol

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace rdt::protocol {

/// Frame layout (docs/PROTOCOL.md "Frames"): u32 big-endian length of what follows, one flags byte, the body.
/// The body is one serialized Envelope, zstd-compressed when FrameZstd is set.
inline constexpr std::size_t kFrameHeaderBytes = 5;
inline constexpr std::uint8_t kFrameZstd = 0x01;
/// Default limit for a frame body, before and after decompression. Larger frames close the connection.
inline constexpr std::uint32_t kDefaultMaxFrameBytes = 4u << 20;
/// Bodies smaller than this are never worth compressing (zstd's own header is ~10 bytes).
inline constexpr std::size_t kCompressMinBytes = 512;

/// Encodes frames; keeps one zstd context for the connection's lifetime (cheaper than one per frame).
class FrameEncoder {
public:
    FrameEncoder();
    ~FrameEncoder();
    FrameEncoder(const FrameEncoder&) = delete;
    FrameEncoder& operator=(const FrameEncoder&) = delete;

    /// Appends one frame holding `body` to `out`. With `mayCompress` the body is compressed when that saves at
    /// least an eighth of it ("when it pays"); true when it was.
    bool append(std::span<const std::uint8_t> body, bool mayCompress, std::vector<std::uint8_t>& out);
    std::uint64_t rawBytes() const { return m_raw; }
    std::uint64_t wireBytes() const { return m_wire; }

private:
    struct Ctx;
    std::unique_ptr<Ctx> m_ctx;
    std::vector<std::uint8_t> m_scratch;
    std::uint64_t m_raw = 0;
    std::uint64_t m_wire = 0;
};

/// Splits a byte stream into frame bodies. Memory stays bounded: a header announcing more than the limit is an
/// error before any of its body is buffered, and a compressed body must declare its decoded size, which is
/// checked against the limit before decompression.
class FrameDecoder {
public:
    explicit FrameDecoder(std::uint32_t maxFrameBytes = kDefaultMaxFrameBytes);
    ~FrameDecoder();
    FrameDecoder(const FrameDecoder&) = delete;
    FrameDecoder& operator=(const FrameDecoder&) = delete;

    /// Bytes the decoder wants next (so a reader never takes more than one frame ahead).
    std::size_t wanted() const;
    void feed(std::span<const std::uint8_t> bytes);
    /// The next complete body, std::nullopt when more bytes are needed, or an Error after which the stream
    /// cannot be resynchronised (the connection must be closed).
    Result<std::optional<std::vector<std::uint8_t>>> next();
    std::size_t buffered() const { return m_buf.size() - m_pos; }
    std::uint32_t maxFrameBytes() const { return m_max; }

private:
    struct Ctx;
    std::unique_ptr<Ctx> m_ctx;
    std::vector<std::uint8_t> m_buf;
    std::size_t m_pos = 0;
    std::uint32_t m_max;
};

/// "4.0 MiB" style text for messages.
std::string byteSizeText(std::uint64_t bytes);

} // namespace rdt::protocol

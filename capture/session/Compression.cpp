// SPDX-License-Identifier: GPL-3.0-or-later
#include "Compression.h"

#include <zstd.h>

#include <string>

namespace rdt::session {

Result<std::vector<std::uint8_t>> compressZstd(const std::vector<std::uint8_t>& data, int level)
{
    std::vector<std::uint8_t> out(ZSTD_compressBound(data.size()));
    const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
    if (ZSTD_isError(n)) return makeError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    out.resize(n);
    // Readers refuse a frame that expands more than kMaxZstdRatio times; data that compresses better (long runs
    // of identical records) gets a skippable frame of padding after it (zstd format, RFC 8878 section 3.1.2:
    // magic 0x184D2A5?, a 4-byte little-endian size, that many bytes), which decompression passes over.
    const std::size_t least = static_cast<std::size_t>((data.size() + kMaxZstdRatio - 1) / kMaxZstdRatio);
    if (out.size() < least) {
        const std::size_t pad = least - out.size() < 8 ? 0 : least - out.size() - 8;
        const std::uint8_t header[8]
            = { 0x50, 0x2A, 0x4D, 0x18, static_cast<std::uint8_t>(pad), static_cast<std::uint8_t>(pad >> 8),
                  static_cast<std::uint8_t>(pad >> 16), static_cast<std::uint8_t>(pad >> 24) };
        out.insert(out.end(), header, header + 8);
        out.resize(out.size() + pad, 0);
    }
    return out;
}

Result<std::vector<std::uint8_t>> decompressZstd(const std::vector<std::uint8_t>& frame, std::uint64_t expectedSize)
{
    constexpr std::uint64_t kMax = 256ull * 1024 * 1024;
    if (expectedSize > kMax)
        return makeError("PMU batch claims " + std::to_string(expectedSize)
            + " bytes uncompressed, more than the "
              "256 MiB a batch may hold: the row is damaged");
    // Nothing is allocated for a size the frame cannot hold: at most kMaxZstdRatio times its own size (so a
    // whole session decodes to at most that many times the file), and the size the frame itself declares.
    if (expectedSize > static_cast<std::uint64_t>(frame.size()) * kMaxZstdRatio)
        return makeError("PMU batch claims " + std::to_string(expectedSize) + " bytes uncompressed from a "
            + std::to_string(frame.size()) + "-byte frame, more than " + std::to_string(kMaxZstdRatio)
            + " times its size: the row is damaged");
    const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != expectedSize)
        return makeError("PMU batch claims " + std::to_string(expectedSize) + " bytes uncompressed, its frame "
            + (declared == ZSTD_CONTENTSIZE_ERROR ? std::string("is not a zstd frame")
                                                  : "says " + std::to_string(declared))
            + ": the row is damaged");
    std::vector<std::uint8_t> out(static_cast<std::size_t>(expectedSize));
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
    if (ZSTD_isError(n))
        return makeError(
            std::string("PMU batch does not decompress (") + ZSTD_getErrorName(n) + "): the row is damaged");
    if (n != expectedSize)
        return makeError("PMU batch decompressed to " + std::to_string(n) + " bytes, expected "
            + std::to_string(expectedSize) + ": the row is damaged");
    return out;
}

} // namespace rdt::session

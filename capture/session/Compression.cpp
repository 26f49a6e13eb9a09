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
    return out;
}

Result<std::vector<std::uint8_t>> decompressZstd(const std::vector<std::uint8_t>& frame, std::uint64_t expectedSize)
{
    constexpr std::uint64_t kMax = 256ull * 1024 * 1024;
    if (expectedSize > kMax)
        return makeError("PMU batch claims " + std::to_string(expectedSize)
            + " bytes uncompressed, more than the "
              "256 MiB a batch may hold: the row is damaged");
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

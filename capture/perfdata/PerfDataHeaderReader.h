// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PerfDataFeatures.h"
#include "core/Result.h"
#include "pmu/RecordDecoder.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rdt::perfdata {

/// What a perf.data file says around its records: the file header (file or pipe mode, where the data section
/// lies), the event attributes with their ids and the feature sections. Every section is checked against the
/// file's size before it is read, and read into a bounded copy.
class PerfDataHeaderReader {
public:
    /// A file of `fileSize` bytes read with pread(2) from `fd` (not owned), or `bytes` in memory when fd is -1.
    PerfDataHeaderReader(int fd, std::span<const std::byte> bytes, std::uint64_t fileSize);

    /// Reads the header: the features into `header`, the events into `decoder` and `attrEvents`.
    Status read(HeaderInfo& header, pmu::RecordDecoder& decoder, std::vector<EventDesc>& attrEvents);
    bool pipeMode() const { return m_pipe; }
    /// [dataBegin, dataEnd): the records (clipped to the file; pipe mode: from the 16-byte header to the end).
    std::uint64_t dataBegin() const { return m_dataBegin; }
    std::uint64_t dataEnd() const { return m_dataEnd; }

    /// "not a readable perf.data file: <what>", with advice.
    static Error notPerfData(const std::string& what);

private:
    Status parseAttrs(const FileSection& attrs, std::uint64_t attrSize, pmu::RecordDecoder& decoder,
        std::vector<EventDesc>& attrEvents);
    void parseFeatures(const FileSection& data, HeaderInfo& header);
    /// [offset, offset + size) of the input, copied (header sections are small; bounded by MaxSectionBytes).
    Result<std::vector<std::byte>> bytesAt(std::uint64_t offset, std::uint64_t size) const;

    int m_fd;
    std::span<const std::byte> m_bytes;
    std::uint64_t m_fileSize;
    bool m_pipe = false;
    std::uint64_t m_dataBegin = 0, m_dataEnd = 0;
};

} // namespace rdt::perfdata

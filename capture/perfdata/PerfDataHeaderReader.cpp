// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a perf.data file: the file header, the event attributes with their ids and the feature sections
// (perf's tools/perf/util/header.c; docs/PMU.md).
#include "PerfDataHeaderReader.h"

#include "pmu/PerfRecordBytes.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace rdt::perfdata {

using pmu::loadAt;
namespace perf = pmu::perf;

namespace {
constexpr std::uint64_t MaxSectionBytes = 256u << 20; ///< one header section (attrs, ids, a feature) at most
} // namespace

Error PerfDataHeaderReader::notPerfData(const std::string& what)
{
    return makeError("not a readable perf.data file: " + what,
        "check the file with `perf report --header-only -i FILE`; a file cut short while recording can often "
        "be read by perf itself only partially too");
}

PerfDataHeaderReader::PerfDataHeaderReader(int fd, std::span<const std::byte> bytes, std::uint64_t fileSize)
    : m_fd(fd)
    , m_bytes(bytes)
    , m_fileSize(fileSize)
{ }

Result<std::vector<std::byte>> PerfDataHeaderReader::bytesAt(std::uint64_t offset, std::uint64_t size) const
{
    if (offset > m_fileSize || size > m_fileSize - offset)
        return notPerfData(std::to_string(size) + " bytes at offset " + std::to_string(offset) + " lie outside the "
            + std::to_string(m_fileSize) + "-byte file (truncated?)");
    if (size > MaxSectionBytes)
        return notPerfData("a header section of " + std::to_string(size) + " bytes (more than "
            + std::to_string(MaxSectionBytes >> 20) + " MiB: damaged?)");
    std::vector<std::byte> out(static_cast<std::size_t>(size));
    if (m_fd < 0) {
        if (size) std::memcpy(out.data(), m_bytes.data() + offset, out.size());
        return out;
    }
    for (std::size_t done = 0; done < out.size();) {
        const ssize_t got = ::pread(m_fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return errnoError(errno, "cannot read the perf.data header");
        if (got == 0) return notPerfData("the file ended while its header was read (cut short while reading?)");
        done += static_cast<std::size_t>(got);
    }
    return out;
}

Status PerfDataHeaderReader::read(HeaderInfo& header, pmu::RecordDecoder& decoder, std::vector<EventDesc>& attrEvents)
{
    if (m_fileSize < PipeHeaderSize) return notPerfData("only " + std::to_string(m_fileSize) + " bytes");
    auto head = bytesAt(0, std::min<std::uint64_t>(m_fileSize, FileHeaderSize));
    if (!head) return head.error();
    const auto* p = head->data();
    const auto magic = loadAt<std::uint64_t>(p);
    if (magic == MagicBE)
        return notPerfData("it was written on a big-endian machine, which this reader does not support");
    if (magic != MagicLE) return notPerfData("no PERFILE2 magic (version-1 files and other formats are not supported)");
    const auto headerSize = loadAt<std::uint64_t>(p + 8);
    if (headerSize == PipeHeaderSize) {
        m_pipe = true;
        m_dataBegin = PipeHeaderSize;
        m_dataEnd = m_fileSize;
        return {};
    }
    if (headerSize < FileHeaderSize || m_fileSize < FileHeaderSize)
        return notPerfData(
            "header of " + std::to_string(headerSize) + " bytes in a " + std::to_string(m_fileSize) + "-byte file");
    const auto attrSize = loadAt<std::uint64_t>(p + 16);
    const FileSection attrs { loadAt<std::uint64_t>(p + 24), loadAt<std::uint64_t>(p + 32) };
    const FileSection data { loadAt<std::uint64_t>(p + 40), loadAt<std::uint64_t>(p + 48) };
    std::uint64_t features[4];
    std::memcpy(features, p + 72, sizeof features);
    for (unsigned i = 0; i < FeatureBits; ++i)
        if ((features[i / 64] >> (i % 64)) & 1u) header.features.set(i);
    if (auto st = parseAttrs(attrs, attrSize, decoder, attrEvents); !st) return st;
    if (data.offset > m_fileSize)
        return notPerfData("the data section starts at " + std::to_string(data.offset) + ", past the end ("
            + std::to_string(m_fileSize) + " bytes): the file is truncated");
    m_dataBegin = data.offset;
    m_dataEnd = data.offset + std::min<std::uint64_t>(data.size, m_fileSize - data.offset);
    parseFeatures(data, header);
    if (header.events.empty()) header.events = attrEvents;
    return {};
}

Status PerfDataHeaderReader::parseAttrs(
    const FileSection& attrs, std::uint64_t attrSize, pmu::RecordDecoder& decoder, std::vector<EventDesc>& attrEvents)
{
    if (attrs.size == 0) return {};
    if (attrSize < perf::AttrSizeVer0 + 16 || attrSize > 4096)
        return notPerfData("attr entry size " + std::to_string(attrSize));
    if (attrs.offset > m_fileSize || attrs.size > m_fileSize - attrs.offset)
        return notPerfData("the attr section lies outside the file (truncated?)");
    auto section = bytesAt(attrs.offset, attrs.size);
    if (!section) return section.error();
    const std::uint64_t n = attrs.size / attrSize;
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto* e = section->data() + i * attrSize;
        auto attr = pmu::parseEventAttr({ e, static_cast<std::size_t>(attrSize - 16) });
        if (!attr) return notPerfData("attr " + std::to_string(i) + ": " + attr.error().message);
        const FileSection ids { loadAt<std::uint64_t>(e + attrSize - 16), loadAt<std::uint64_t>(e + attrSize - 8) };
        std::vector<std::uint64_t> idList;
        if (ids.size > 0) {
            if (ids.offset > m_fileSize || ids.size > m_fileSize - ids.offset)
                return notPerfData("attr " + std::to_string(i) + "'s ids lie outside the file");
            auto idBytes = bytesAt(ids.offset, ids.size);
            if (!idBytes) return idBytes.error();
            idList.resize(static_cast<std::size_t>(ids.size / 8));
            if (!idList.empty()) std::memcpy(idList.data(), idBytes->data(), idList.size() * 8);
        }
        decoder.addEvent(*attr, idList);
        attrEvents.push_back({ *attr, {}, std::move(idList), {}, 1.0 });
    }
    return {};
}

void PerfDataHeaderReader::parseFeatures(const FileSection& data, HeaderInfo& header)
{
    // The feature index (one perf_file_section per set bit, in bit order) follows the data section.
    std::uint64_t at = data.offset + data.size;
    for (unsigned bit = 0; bit < FeatureBits; ++bit) {
        if (!header.features.test(bit)) continue;
        const bool inFile = at <= m_fileSize && m_fileSize - at >= 16;
        auto entry = bytesAt(inFile ? at : 0, inFile ? 16 : 0);
        if (!inFile || !entry) {
            header.warnings.push_back("feature index truncated at " + featureName(bit) + " (file cut short?)");
            return;
        }
        const FileSection s { loadAt<std::uint64_t>(entry->data()), loadAt<std::uint64_t>(entry->data() + 8) };
        at += 16;
        if (s.offset > m_fileSize || s.size > m_fileSize - s.offset) {
            header.warnings.push_back("feature " + featureName(bit) + " lies outside the file");
            continue;
        }
        auto bytes = bytesAt(s.offset, s.size);
        if (!bytes) {
            header.warnings.push_back("feature " + featureName(bit) + ": " + bytes.error().message);
            continue;
        }
        (void)parseFeature(bit, *bytes, header);
    }
}

} // namespace rdt::perfdata

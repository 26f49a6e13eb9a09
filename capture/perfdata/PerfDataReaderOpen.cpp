// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a perf.data file or pipe: the file header, the event attributes with their ids and the feature sections
// (perf's tools/perf/util/header.c; docs/PMU.md). Reading the records that follow is PerfDataReader.cpp.
#include "PerfDataReader.h"

#include "ZstdStream.h" // the reader's members, destroyed here
#include "pmu/PerfRecordBytes.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt::perfdata {

using pmu::loadAt;
namespace perf = pmu::perf;

namespace {
constexpr std::uint64_t MaxSectionBytes = 256u << 20; ///< one header section (attrs, ids, a feature) at most

Error badFile(const std::string& what)
{
    return makeError("not a readable perf.data file: " + what,
        "check the file with `perf report --header-only -i FILE`; a file cut short while recording can often "
        "be read by perf itself only partially too");
}
} // namespace

PerfDataReader::PerfDataReader() = default;
PerfDataReader::~PerfDataReader() = default;

Result<std::unique_ptr<PerfDataReader>> PerfDataReader::open(const std::string& path)
{
    // pread(2) in bounded chunks, never mmap: a file cut short while it is read (perf still writing, a copy in
    // progress) then reads as end of file and is reported as truncated, where a mapping would raise SIGBUS.
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (!fd) return errnoError(errno, "cannot open " + path);
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0) return errnoError(errno, "cannot stat " + path);
    if (!S_ISREG(st.st_mode))
        return makeError(path + " is not a regular file",
            "give a perf.data file; for a pipe-mode stream use `perf record -o - | rdtscope-cli import -`");
    std::unique_ptr<PerfDataReader> r(new PerfDataReader);
    r->m_file = std::move(fd);
    r->m_fileSize = static_cast<std::uint64_t>(st.st_size);
    if (auto h = r->parseFileHeader(); !h)
        return Error { h.error().code, path + ": " + h.error().message, h.error().advice };
    return r;
}

Result<std::unique_ptr<PerfDataReader>> PerfDataReader::fromBytes(std::span<const std::byte> bytes)
{
    std::unique_ptr<PerfDataReader> r(new PerfDataReader);
    r->m_bytes = bytes;
    r->m_fileSize = bytes.size();
    if (auto st = r->parseFileHeader(); !st) return st.error();
    return r;
}

Result<std::unique_ptr<PerfDataReader>> PerfDataReader::openPipe(int fd)
{
    std::unique_ptr<PerfDataReader> r(new PerfDataReader);
    r->m_stream = true;
    r->m_input = std::make_unique<RecordInput>(ReadAhead::stream(fd));
    if (!r->ensure(PipeHeaderSize)) return badFile("the stream ended before its 16-byte header");
    const auto* p = r->m_input->data();
    if (loadAt<std::uint64_t>(p) != MagicLE || loadAt<std::uint64_t>(p + 8) != PipeHeaderSize)
        return badFile("the stream does not start with a pipe-mode header (PERFILE2, size 16)");
    r->consume(PipeHeaderSize);
    r->m_pipe = true;
    r->m_dataBegin = PipeHeaderSize;
    r->m_dataEnd = PipeHeaderSize; // unknown length
    return r;
}

Result<std::vector<std::byte>> PerfDataReader::bytesAt(std::uint64_t offset, std::uint64_t size) const
{
    if (offset > m_fileSize || size > m_fileSize - offset)
        return badFile(std::to_string(size) + " bytes at offset " + std::to_string(offset) + " lie outside the "
            + std::to_string(m_fileSize) + "-byte file (truncated?)");
    if (size > MaxSectionBytes)
        return badFile("a header section of " + std::to_string(size) + " bytes (more than "
            + std::to_string(MaxSectionBytes >> 20) + " MiB: damaged?)");
    std::vector<std::byte> out(static_cast<std::size_t>(size));
    if (!m_file) {
        if (size) std::memcpy(out.data(), m_bytes.data() + offset, out.size());
        return out;
    }
    for (std::size_t done = 0; done < out.size();) {
        const ssize_t got
            = ::pread(m_file.get(), out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return errnoError(errno, "cannot read the perf.data header");
        if (got == 0) return badFile("the file ended while its header was read (cut short while reading?)");
        done += static_cast<std::size_t>(got);
    }
    return out;
}

Status PerfDataReader::parseFileHeader()
{
    if (m_fileSize < PipeHeaderSize) return badFile("only " + std::to_string(m_fileSize) + " bytes");
    auto head = bytesAt(0, std::min<std::uint64_t>(m_fileSize, FileHeaderSize));
    if (!head) return head.error();
    const auto* p = head->data();
    const auto magic = loadAt<std::uint64_t>(p);
    if (magic == MagicBE) return badFile("it was written on a big-endian machine, which this reader does not support");
    if (magic != MagicLE) return badFile("no PERFILE2 magic (version-1 files and other formats are not supported)");
    const auto headerSize = loadAt<std::uint64_t>(p + 8);
    if (headerSize == PipeHeaderSize) {
        m_pipe = true;
        m_dataBegin = PipeHeaderSize;
        m_dataEnd = m_fileSize;
        m_pos = m_dataBegin;
        return {};
    }
    if (headerSize < FileHeaderSize || m_fileSize < FileHeaderSize)
        return badFile(
            "header of " + std::to_string(headerSize) + " bytes in a " + std::to_string(m_fileSize) + "-byte file");
    const auto attrSize = loadAt<std::uint64_t>(p + 16);
    const FileSection attrs { loadAt<std::uint64_t>(p + 24), loadAt<std::uint64_t>(p + 32) };
    const FileSection data { loadAt<std::uint64_t>(p + 40), loadAt<std::uint64_t>(p + 48) };
    std::uint64_t features[4];
    std::memcpy(features, p + 72, sizeof features);
    for (unsigned i = 0; i < FeatureBits; ++i)
        if ((features[i / 64] >> (i % 64)) & 1u) m_header.features.set(i);
    if (auto st = parseAttrs(attrs, attrSize); !st) return st;
    if (data.offset > m_fileSize)
        return badFile("the data section starts at " + std::to_string(data.offset) + ", past the end ("
            + std::to_string(m_fileSize) + " bytes): the file is truncated");
    m_dataBegin = data.offset;
    m_dataEnd = data.offset + std::min<std::uint64_t>(data.size, m_fileSize - data.offset);
    m_pos = m_dataBegin;
    parseFeatures(data);
    if (m_header.events.empty()) m_header.events = m_attrEvents;
    return {};
}

Status PerfDataReader::parseAttrs(const FileSection& attrs, std::uint64_t attrSize)
{
    if (attrs.size == 0) return {};
    if (attrSize < perf::AttrSizeVer0 + 16 || attrSize > 4096)
        return badFile("attr entry size " + std::to_string(attrSize));
    if (attrs.offset > m_fileSize || attrs.size > m_fileSize - attrs.offset)
        return badFile("the attr section lies outside the file (truncated?)");
    auto section = bytesAt(attrs.offset, attrs.size);
    if (!section) return section.error();
    const std::uint64_t n = attrs.size / attrSize;
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto* e = section->data() + i * attrSize;
        auto attr = pmu::parseEventAttr({ e, static_cast<std::size_t>(attrSize - 16) });
        if (!attr) return badFile("attr " + std::to_string(i) + ": " + attr.error().message);
        const FileSection ids { loadAt<std::uint64_t>(e + attrSize - 16), loadAt<std::uint64_t>(e + attrSize - 8) };
        std::vector<std::uint64_t> idList;
        if (ids.size > 0) {
            if (ids.offset > m_fileSize || ids.size > m_fileSize - ids.offset)
                return badFile("attr " + std::to_string(i) + "'s ids lie outside the file");
            auto idBytes = bytesAt(ids.offset, ids.size);
            if (!idBytes) return idBytes.error();
            idList.resize(static_cast<std::size_t>(ids.size / 8));
            if (!idList.empty()) std::memcpy(idList.data(), idBytes->data(), idList.size() * 8);
        }
        m_decoder.addEvent(*attr, idList);
        m_attrEvents.push_back({ *attr, {}, std::move(idList), {}, 1.0 });
    }
    return {};
}

void PerfDataReader::parseFeatures(const FileSection& data)
{
    // The feature index (one perf_file_section per set bit, in bit order) follows the data section.
    std::uint64_t at = data.offset + data.size;
    for (unsigned bit = 0; bit < FeatureBits; ++bit) {
        if (!m_header.features.test(bit)) continue;
        const bool inFile = at <= m_fileSize && m_fileSize - at >= 16;
        auto entry = bytesAt(inFile ? at : 0, inFile ? 16 : 0);
        if (!inFile || !entry) {
            m_header.warnings.push_back("feature index truncated at " + featureName(bit) + " (file cut short?)");
            return;
        }
        const FileSection s { loadAt<std::uint64_t>(entry->data()), loadAt<std::uint64_t>(entry->data() + 8) };
        at += 16;
        if (s.offset > m_fileSize || s.size > m_fileSize - s.offset) {
            m_header.warnings.push_back("feature " + featureName(bit) + " lies outside the file");
            continue;
        }
        auto bytes = bytesAt(s.offset, s.size);
        if (!bytes) {
            m_header.warnings.push_back("feature " + featureName(bit) + ": " + bytes.error().message);
            continue;
        }
        (void)parseFeature(bit, *bytes, m_header);
    }
}
} // namespace rdt::perfdata

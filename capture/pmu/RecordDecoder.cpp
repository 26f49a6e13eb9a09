// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecordDecoder.h"

#include "PerfRecordBytes.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>

namespace rdt::pmu {

namespace {

Error truncated(const char* what, std::size_t need, std::size_t have)
{
    return makeError(std::string("perf record truncated in ") + what + " (needs " + std::to_string(need)
            + " more bytes, " + std::to_string(have) + " left)",
        "the record stream is corrupt or the attr does not match the records; check the file with `perf script`");
}

#define RDT_TAKE(call, what, need)                                                                                     \
    do {                                                                                                               \
        if (!(call)) return truncated(what, need, c.left());                                                           \
    } while (0)

// Reads `nr` u64 values after checking they fit (so a corrupt nr never makes a huge allocation).
Status takeU64s(ByteCursor& c, std::uint64_t nr, std::vector<std::uint64_t>& out, const char* what)
{
    out.clear();
    if (nr > c.left() / 8)
        return truncated(what, static_cast<std::size_t>(std::min<std::uint64_t>(nr, 1u << 30)) * 8, c.left());
    out.resize(static_cast<std::size_t>(nr));
    std::span<const std::byte> b;
    (void)c.bytes(out.size() * 8, b);
    if (!out.empty()) std::memcpy(out.data(), b.data(), b.size());
    return {};
}

Status takeRead(ByteCursor& c, std::uint64_t format, ReadData& out)
{
    out.values.clear();
    out.timeEnabled = out.timeRunning = 0;
    const bool withId = format & perf::ReadId;
    const bool withLost = format & perf::ReadLost;
    if (format & perf::ReadGroup) {
        std::uint64_t nr = 0;
        RDT_TAKE(c.u64(nr), "READ (group nr)", 8);
        if (format & perf::ReadTotalTimeEnabled) RDT_TAKE(c.u64(out.timeEnabled), "READ (time_enabled)", 8);
        if (format & perf::ReadTotalTimeRunning) RDT_TAKE(c.u64(out.timeRunning), "READ (time_running)", 8);
        const std::size_t entry = 8u * (1u + (withId ? 1u : 0u) + (withLost ? 1u : 0u));
        if (nr > c.left() / entry)
            return truncated("READ (group values)",
                static_cast<std::size_t>(std::min<std::uint64_t>(nr, 1u << 30)) * entry, c.left());
        out.values.resize(static_cast<std::size_t>(nr));
        for (auto& v : out.values) {
            (void)c.u64(v.value);
            if (withId) (void)c.u64(v.id);
            if (withLost) (void)c.u64(v.lost);
        }
        return {};
    }
    ReadValue v;
    RDT_TAKE(c.u64(v.value), "READ (value)", 8);
    if (format & perf::ReadTotalTimeEnabled) RDT_TAKE(c.u64(out.timeEnabled), "READ (time_enabled)", 8);
    if (format & perf::ReadTotalTimeRunning) RDT_TAKE(c.u64(out.timeRunning), "READ (time_running)", 8);
    if (withId) RDT_TAKE(c.u64(v.id), "READ (id)", 8);
    if (withLost) RDT_TAKE(c.u64(v.lost), "READ (lost)", 8);
    out.values.push_back(v);
    return {};
}

Status takeRegs(
    ByteCursor& c, std::uint64_t mask, std::uint64_t& abi, std::vector<std::uint64_t>& regs, const char* what)
{
    RDT_TAKE(c.u64(abi), what, 8);
    regs.clear();
    if (abi == 0) // PERF_SAMPLE_REGS_ABI_NONE: no registers follow [kernel/events/core.c perf_output_sample]
        return {};
    const auto n = static_cast<std::uint64_t>(std::popcount(mask));
    if (n * 8 > c.left()) return truncated(what, n * 8, c.left());
    return takeU64s(c, n, regs, what);
}

// A NUL-terminated string padded to 8 bytes, bounded by `len` bytes.
std::string takeString(const std::byte* p, std::size_t len)
{
    const auto* chars = reinterpret_cast<const char*>(p);
    return std::string(chars, strnlen(chars, len));
}

std::size_t countBits(std::uint64_t sampleType, std::uint64_t mask)
{
    return static_cast<std::size_t>(std::popcount(sampleType & mask));
}

} // namespace

Result<RecordHeader> readRecordHeader(std::span<const std::byte> bytes)
{
    if (bytes.size() < perf::HeaderSize)
        return makeError("perf record header truncated (" + std::to_string(bytes.size()) + " of 8 bytes)");
    RecordHeader h;
    h.type = loadAt<std::uint32_t>(bytes.data());
    h.misc = loadAt<std::uint16_t>(bytes.data() + 4);
    h.size = loadAt<std::uint16_t>(bytes.data() + 6);
    return h;
}

Result<EventAttr> parseEventAttr(std::span<const std::byte> bytes)
{
    if (bytes.size() < perf::AttrSizeVer0)
        return makeError("perf_event_attr truncated: " + std::to_string(bytes.size()) + " bytes, at least 64 needed");
    EventAttr a;
    const std::byte* p = bytes.data();
    a.type = loadAt<std::uint32_t>(p);
    a.size = loadAt<std::uint32_t>(p + 4);
    // perf writes size 0 for the oldest ABI (PERF_ATTR_SIZE_VER0 implied).
    const std::uint32_t size = a.size == 0 ? perf::AttrSizeVer0 : a.size;
    if (size < perf::AttrSizeVer0 || size > bytes.size())
        return makeError("perf_event_attr size " + std::to_string(a.size) + " does not fit its "
            + std::to_string(bytes.size()) + "-byte slot");
    // Copy the known prefix into a zeroed 136-byte image; fields past `size` stay zero.
    std::byte img[perf::AttrSizeVer8] = {};
    std::memcpy(img, p, std::min<std::size_t>(size, sizeof img));
    a.config = loadAt<std::uint64_t>(img + 8);
    a.samplePeriod = loadAt<std::uint64_t>(img + 16);
    a.sampleType = loadAt<std::uint64_t>(img + 24);
    a.readFormat = loadAt<std::uint64_t>(img + 32);
    a.flags = loadAt<std::uint64_t>(img + 40);
    a.wakeupEvents = loadAt<std::uint32_t>(img + 48);
    a.bpType = loadAt<std::uint32_t>(img + 52);
    a.config1 = loadAt<std::uint64_t>(img + 56);
    a.config2 = loadAt<std::uint64_t>(img + 64);
    a.branchSampleType = loadAt<std::uint64_t>(img + 72);
    a.sampleRegsUser = loadAt<std::uint64_t>(img + 80);
    a.sampleStackUser = loadAt<std::uint32_t>(img + 88);
    a.clockid = loadAt<std::int32_t>(img + 92);
    a.sampleRegsIntr = loadAt<std::uint64_t>(img + 96);
    a.auxWatermark = loadAt<std::uint32_t>(img + 104);
    a.sampleMaxStack = loadAt<std::uint16_t>(img + 108);
    a.auxSampleSize = loadAt<std::uint32_t>(img + 112);
    a.sigData = loadAt<std::uint64_t>(img + 120);
    a.config3 = loadAt<std::uint64_t>(img + 128);
    return a;
}

std::vector<std::byte> serializeEventAttr(const EventAttr& a, std::uint32_t size)
{
    size = std::clamp(size, perf::AttrSizeVer0, perf::AttrSizeVer8);
    std::byte img[perf::AttrSizeVer8] = {};
    auto put = [&img](std::size_t off, auto v) { std::memcpy(img + off, &v, sizeof v); };
    put(0, a.type);
    put(4, size);
    put(8, a.config);
    put(16, a.samplePeriod);
    put(24, a.sampleType);
    put(32, a.readFormat);
    put(40, a.flags);
    put(48, a.wakeupEvents);
    put(52, a.bpType);
    put(56, a.config1);
    put(64, a.config2);
    put(72, a.branchSampleType);
    put(80, a.sampleRegsUser);
    put(88, a.sampleStackUser);
    put(92, a.clockid);
    put(96, a.sampleRegsIntr);
    put(104, a.auxWatermark);
    put(108, a.sampleMaxStack);
    put(112, a.auxSampleSize);
    put(120, a.sigData);
    put(128, a.config3);
    return std::vector<std::byte>(img, img + size);
}

std::size_t RecordDecoder::addEvent(const EventAttr& attr, std::span<const std::uint64_t> ids)
{
    m_events.push_back(std::make_unique<EventAttr>(attr));
    addIds(m_events.size() - 1, ids);
    return m_events.size() - 1;
}

void RecordDecoder::addIds(std::size_t eventIndex, std::span<const std::uint64_t> ids)
{
    for (auto id : ids)
        m_byId[id] = eventIndex;
}

void RecordDecoder::clear()
{
    m_events.clear();
    m_byId.clear();
}

std::size_t RecordDecoder::eventIndex(const EventAttr* attr) const
{
    for (std::size_t i = 0; i < m_events.size(); ++i)
        if (m_events[i].get() == attr) return i;
    return std::numeric_limits<std::size_t>::max();
}

const EventAttr* RecordDecoder::attrForId(std::uint64_t id) const
{
    auto it = m_byId.find(id);
    return it == m_byId.end() ? nullptr : m_events[it->second].get();
}

std::size_t RecordDecoder::sampleIdSize(std::uint64_t t)
{
    using namespace perf;
    return 8 * countBits(t, SampleTid | SampleTime | SampleId | SampleStreamId | SampleCpu | SampleIdentifier);
}

const EventAttr* RecordDecoder::attrForRecord(const RecordHeader& header, std::span<const std::byte> record) const
{
    if (m_events.empty()) return nullptr;
    const EventAttr* first = m_events.front().get();
    if (m_events.size() == 1 || record.size() < perf::HeaderSize) return first;
    const auto body = record.subspan(perf::HeaderSize);
    const std::uint64_t t = first->sampleType;
    std::size_t off = 0;
    bool fromEnd = false;
    if (header.type == perf::RecordSample) {
        if (t & perf::SampleIdentifier)
            off = 0;
        else if (t & perf::SampleId)
            off = 8 * countBits(t, perf::SampleIp | perf::SampleTid | perf::SampleTime | perf::SampleAddr);
        else
            return first;
    } else {
        if (header.type >= perf::RecordUserTypeStart || !first->sampleIdAll()) return first;
        fromEnd = true;
        if (t & perf::SampleIdentifier)
            off = 8;
        else if (t & perf::SampleId)
            off = 8 * (1 + countBits(t, perf::SampleStreamId | perf::SampleCpu));
        else
            return first;
    }
    if (off + 8 > body.size()) return first;
    const std::size_t at = fromEnd ? body.size() - off : off;
    const EventAttr* byId = attrForId(loadAt<std::uint64_t>(body.data() + at));
    return byId ? byId : first;
}

Status RecordDecoder::decodeSample(std::span<const std::byte> body, const EventAttr& attr, Sample& s)
{
    using namespace perf;
    const std::uint64_t t = attr.sampleType;
    ByteCursor c(body);
    s.present = t;
    if (t & SampleIdentifier) RDT_TAKE(c.u64(s.identifier), "SAMPLE IDENTIFIER", 8);
    if (t & SampleIp) RDT_TAKE(c.u64(s.ip), "SAMPLE IP", 8);
    if (t & SampleTid) {
        RDT_TAKE(c.u32(s.pid), "SAMPLE TID", 8);
        RDT_TAKE(c.u32(s.tid), "SAMPLE TID", 4);
    }
    if (t & SampleTime) RDT_TAKE(c.u64(s.time), "SAMPLE TIME", 8);
    if (t & SampleAddr) RDT_TAKE(c.u64(s.addr), "SAMPLE ADDR", 8);
    if (t & SampleId) RDT_TAKE(c.u64(s.id), "SAMPLE ID", 8);
    if (t & SampleStreamId) RDT_TAKE(c.u64(s.streamId), "SAMPLE STREAM_ID", 8);
    if (t & SampleCpu) {
        RDT_TAKE(c.u32(s.cpu), "SAMPLE CPU", 8);
        RDT_TAKE(c.u32(s.cpuRes), "SAMPLE CPU", 4);
    }
    if (t & SamplePeriod) RDT_TAKE(c.u64(s.period), "SAMPLE PERIOD", 8);
    if (t & SampleRead) {
        if (auto st = takeRead(c, attr.readFormat, s.read); !st) return st;
    }
    if (t & SampleCallchain) {
        std::uint64_t nr = 0;
        RDT_TAKE(c.u64(nr), "SAMPLE CALLCHAIN nr", 8);
        if (auto st = takeU64s(c, nr, s.callchain, "SAMPLE CALLCHAIN ips"); !st) return st;
    }
    if (t & SampleRaw) {
        std::uint32_t size = 0;
        RDT_TAKE(c.u32(size), "SAMPLE RAW size", 4);
        RDT_TAKE(c.bytes(size, s.raw), "SAMPLE RAW data", size);
    }
    if (t & SampleBranchStack) {
        RDT_TAKE(c.u64(s.branchNr), "SAMPLE BRANCH_STACK nr", 8);
        s.hasHwIdx = (attr.branchSampleType & BranchHwIndex) != 0;
        s.hwIdx = 0;
        if (s.hasHwIdx) RDT_TAKE(c.u64(s.hwIdx), "SAMPLE BRANCH_STACK hw_idx", 8);
        if (s.branchNr > c.left() / 24)
            return truncated("SAMPLE BRANCH_STACK entries",
                static_cast<std::size_t>(std::min<std::uint64_t>(s.branchNr, 1u << 30)) * 24, c.left());
        const auto nr = static_cast<std::size_t>(s.branchNr);
        std::span<const std::byte> b;
        (void)c.bytes(nr * BranchStack::EntryBytes, b);
        s.branches.view(b); // in place: no copy per sample
        s.branchCounters.clear();
        if (attr.branchSampleType & BranchCounters) {
            if (auto st = takeU64s(c, nr, s.branchCounters, "SAMPLE BRANCH_STACK counters"); !st) return st;
        }
    } else {
        s.branches.clear();
        s.branchNr = 0;
    }
    if (t & SampleRegsUser) {
        if (auto st = takeRegs(c, attr.sampleRegsUser, s.regsUserAbi, s.regsUser, "SAMPLE REGS_USER"); !st) return st;
    }
    if (t & SampleStackUser) {
        RDT_TAKE(c.u64(s.stackUserSize), "SAMPLE STACK_USER size", 8);
        if (s.stackUserSize > c.left())
            return truncated("SAMPLE STACK_USER data", static_cast<std::size_t>(s.stackUserSize), c.left());
        (void)c.bytes(static_cast<std::size_t>(s.stackUserSize), s.stackUser);
        s.stackUserDynSize = 0;
        if (s.stackUserSize != 0) // dyn_size is only written when size != 0 [uapi]
            RDT_TAKE(c.u64(s.stackUserDynSize), "SAMPLE STACK_USER dyn_size", 8);
    }
    if (t & (SampleWeight | SampleWeightStruct)) {
        RDT_TAKE(c.u64(s.weight.full), "SAMPLE WEIGHT", 8);
        s.weight.var1 = static_cast<std::uint32_t>(s.weight.full);
        s.weight.var2 = static_cast<std::uint16_t>(s.weight.full >> 32);
        s.weight.var3 = static_cast<std::uint16_t>(s.weight.full >> 48);
    }
    if (t & SampleDataSrc) RDT_TAKE(c.u64(s.dataSrc), "SAMPLE DATA_SRC", 8);
    if (t & SampleTransaction) RDT_TAKE(c.u64(s.transaction), "SAMPLE TRANSACTION", 8);
    if (t & SampleRegsIntr) {
        if (auto st = takeRegs(c, attr.sampleRegsIntr, s.regsIntrAbi, s.regsIntr, "SAMPLE REGS_INTR"); !st) return st;
    }
    if (t & SamplePhysAddr) RDT_TAKE(c.u64(s.physAddr), "SAMPLE PHYS_ADDR", 8);
    if (t & SampleCgroup) RDT_TAKE(c.u64(s.cgroup), "SAMPLE CGROUP", 8);
    if (t & SampleDataPageSize) RDT_TAKE(c.u64(s.dataPageSize), "SAMPLE DATA_PAGE_SIZE", 8);
    if (t & SampleCodePageSize) RDT_TAKE(c.u64(s.codePageSize), "SAMPLE CODE_PAGE_SIZE", 8);
    if (t & SampleAux) {
        std::uint64_t size = 0;
        RDT_TAKE(c.u64(size), "SAMPLE AUX size", 8);
        if (size > c.left()) return truncated("SAMPLE AUX data", static_cast<std::size_t>(size), c.left());
        (void)c.bytes(static_cast<std::size_t>(size), s.aux);
    }
    return {};
}

Status RecordDecoder::decodeSampleId(std::span<const std::byte> body, const EventAttr& attr, SampleIdTrailer& out)
{
    using namespace perf;
    out = {};
    const std::uint64_t t = attr.sampleType;
    const std::size_t size = sampleIdSize(t);
    if (size > body.size())
        return makeError("perf record too short for its sample_id trailer (" + std::to_string(body.size())
            + " bytes, trailer " + std::to_string(size) + ")");
    ByteCursor c(body.subspan(body.size() - size));
    if (t & SampleTid) {
        (void)c.u32(out.pid);
        (void)c.u32(out.tid);
    }
    if (t & SampleTime) (void)c.u64(out.time);
    if (t & SampleId) (void)c.u64(out.id);
    if (t & SampleStreamId) (void)c.u64(out.streamId);
    if (t & SampleCpu) {
        (void)c.u32(out.cpu);
        (void)c.u32(out.cpuRes);
    }
    if (t & SampleIdentifier) (void)c.u64(out.identifier);
    out.present = true;
    return {};
}

Status RecordDecoder::decode(std::span<const std::byte> record, DecodedRecord& out) const
{
    using namespace perf;
    auto h = readRecordHeader(record);
    if (!h) return h.error();
    out.header = *h;
    out.kind = RecordKind::Other;
    out.sampleId.present = false;
    if (h->size < HeaderSize || h->size != record.size())
        return makeError("perf record size " + std::to_string(h->size) + " does not match its "
            + std::to_string(record.size()) + " bytes (type " + recordTypeName(h->type) + ")");
    out.attr = attrForRecord(*h, record);
    auto body = record.subspan(HeaderSize);
    if (h->type == RecordSample) {
        if (!out.attr) return makeError("PERF_RECORD_SAMPLE without any event attr to decode it");
        out.sample.misc = h->misc;
        out.kind = RecordKind::Sample;
        return decodeSample(body, *out.attr, out.sample);
    }
    if (h->type >= RecordUserTypeStart) return {};
    // Non-sample kernel records: strip the sample_id trailer first, so the variable-length tail (file names,
    // comm) is bounded by it.
    if (out.attr && out.attr->sampleIdAll()) {
        if (auto st = decodeSampleId(body, *out.attr, out.sampleId); !st) return st;
        body = body.first(body.size() - sampleIdSize(out.attr->sampleType));
    }
    ByteCursor c(body);
    switch (h->type) {
    case RecordMmap:
    case RecordMmap2: {
        auto& m = out.mmap;
        m.isMmap2 = h->type == RecordMmap2;
        m.hasBuildId = false;
        m.buildIdSize = 0;
        m.maj = m.min = 0;
        m.ino = m.inoGeneration = 0;
        m.prot = m.flags = 0;
        RDT_TAKE(c.u32(m.pid) && c.u32(m.tid) && c.u64(m.addr) && c.u64(m.len) && c.u64(m.pgoff), "MMAP", 32);
        if (m.isMmap2) {
            std::span<const std::byte> u;
            RDT_TAKE(c.bytes(24, u), "MMAP2 maj/min/ino or build_id", 24);
            if (h->misc & MiscMmapBuildId) {
                m.hasBuildId = true;
                m.buildIdSize = std::min<std::uint8_t>(std::to_integer<std::uint8_t>(u[0]), 20);
                std::memcpy(m.buildId, u.data() + 4, 20);
            } else {
                m.maj = loadAt<std::uint32_t>(u.data());
                m.min = loadAt<std::uint32_t>(u.data() + 4);
                m.ino = loadAt<std::uint64_t>(u.data() + 8);
                m.inoGeneration = loadAt<std::uint64_t>(u.data() + 16);
            }
            RDT_TAKE(c.u32(m.prot) && c.u32(m.flags), "MMAP2 prot/flags", 8);
        }
        m.filename = takeString(c.position(), c.left());
        out.kind = RecordKind::Mmap;
        return {};
    }
    case RecordComm:
        RDT_TAKE(c.u32(out.comm.pid) && c.u32(out.comm.tid), "COMM", 8);
        out.comm.comm = takeString(c.position(), c.left());
        out.comm.exec = (h->misc & MiscCommExec) != 0;
        out.kind = RecordKind::Comm;
        return {};
    case RecordFork:
    case RecordExit: {
        auto& tk = out.task;
        RDT_TAKE(c.u32(tk.pid) && c.u32(tk.ppid) && c.u32(tk.tid) && c.u32(tk.ptid) && c.u64(tk.time),
            h->type == RecordFork ? "FORK" : "EXIT", 24);
        out.kind = h->type == RecordFork ? RecordKind::Fork : RecordKind::Exit;
        return {};
    }
    case RecordLost:
        RDT_TAKE(c.u64(out.lost.id) && c.u64(out.lost.lost), "LOST", 16);
        out.kind = RecordKind::Lost;
        return {};
    case RecordLostSamples:
        RDT_TAKE(c.u64(out.lostSamples.lost), "LOST_SAMPLES", 8);
        out.kind = RecordKind::LostSamples;
        return {};
    case RecordThrottle:
    case RecordUnthrottle:
        out.throttle.unthrottle = h->type == RecordUnthrottle;
        RDT_TAKE(c.u64(out.throttle.time) && c.u64(out.throttle.id) && c.u64(out.throttle.streamId), "THROTTLE", 24);
        out.kind = RecordKind::Throttle;
        return {};
    case RecordRead:
        RDT_TAKE(c.u32(out.read.pid) && c.u32(out.read.tid), "READ", 8);
        if (auto st = takeRead(c, out.attr ? out.attr->readFormat : 0, out.read.values); !st) return st;
        out.kind = RecordKind::Read;
        return {};
    case RecordSwitch:
    case RecordSwitchCpuWide:
        out.sw = {};
        out.sw.out = (h->misc & MiscSwitchOut) != 0;
        out.sw.cpuWide = h->type == RecordSwitchCpuWide;
        if (out.sw.cpuWide) RDT_TAKE(c.u32(out.sw.nextPrevPid) && c.u32(out.sw.nextPrevTid), "SWITCH_CPU_WIDE", 8);
        out.kind = RecordKind::Switch;
        return {};
    default:
        return {};
    }
}

#undef RDT_TAKE

} // namespace rdt::pmu

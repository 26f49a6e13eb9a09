// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfDataFeatures.h"

#include "pmu/PerfRecordBytes.h"
#include "pmu/RecordDecoder.h"

#include <array>
#include <cstring>

namespace rdt::perfdata {

using pmu::ByteCursor;

std::string featureName(unsigned feature)
{
    static constexpr std::array<const char*, FeatLastKnown> names = { "reserved", "tracing_data", "build_id",
        "hostname", "osrelease", "version", "arch", "nrcpus", "cpudesc", "cpuid", "total_mem", "cmdline", "event_desc",
        "cpu_topology", "numa_topology", "branch_stack", "pmu_mappings", "group_desc", "auxtrace", "stat", "cache",
        "sample_time", "mem_topology", "clockid", "dir_format", "bpf_prog_info", "bpf_btf", "compressed",
        "cpu_pmu_caps", "clock_data", "hybrid_topology", "pmu_caps" };
    return feature < names.size() ? names[feature] : "feature " + std::to_string(feature);
}

std::string BuildId::hex() const
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string s;
    for (std::uint8_t i = 0; i < size && i < 20; ++i) {
        s += digits[data[i] >> 4];
        s += digits[data[i] & 0xf];
    }
    return s;
}

bool BuildId::matches(std::span<const std::uint8_t> binaryId) const
{
    if (binaryId.empty() || binaryId.size() > size) return false;
    if (std::memcmp(data, binaryId.data(), binaryId.size()) != 0) return false;
    for (std::size_t i = binaryId.size(); i < size; ++i)
        if (data[i] != 0) return false;
    return true;
}

const BuildIdEntry* HeaderInfo::buildIdFor(const std::string& filename) const
{
    for (const auto& b : buildIds)
        if (b.filename == filename) return &b;
    return nullptr;
}

std::string HeaderInfo::pmuName(std::uint32_t attrType) const
{
    for (const auto& [type, name] : pmuMappings)
        if (type == attrType) return name;
    return {};
}

std::string HeaderInfo::commandLine() const
{
    std::string s;
    for (const auto& a : cmdline) {
        if (!s.empty()) s += ' ';
        s += a;
    }
    return s;
}

namespace {

Error malformed(unsigned feature, const std::string& why)
{
    return makeError("perf.data feature " + featureName(feature) + " is malformed: " + why,
        "the rest of the file is still read; re-record with a current perf if the header matters");
}

// struct perf_header_string {u32 len; char string[len]} (len includes the NUL and padding).
bool takeString(ByteCursor& c, std::string& out)
{
    std::uint32_t len = 0;
    std::span<const std::byte> b;
    if (!c.u32(len) || !c.bytes(len, b)) return false;
    const auto* chars = reinterpret_cast<const char*>(b.data());
    out.assign(chars, strnlen(chars, b.size()));
    return true;
}

bool takeStringList(ByteCursor& c, std::vector<std::string>& out)
{
    std::uint32_t nr = 0;
    if (!c.u32(nr) || nr > c.left() / 4) return false;
    out.resize(nr);
    for (auto& s : out)
        if (!takeString(c, s)) return false;
    return true;
}

Status parseEventDesc(ByteCursor& c, HeaderInfo& info)
{
    std::uint32_t nr = 0, attrSize = 0;
    if (!c.u32(nr) || !c.u32(attrSize)) return malformed(FeatEventDesc, "no count");
    if (attrSize < pmu::perf::AttrSizeVer0 || nr > c.left() / attrSize)
        return malformed(FeatEventDesc, "attr size " + std::to_string(attrSize) + " x " + std::to_string(nr));
    info.events.clear();
    for (std::uint32_t i = 0; i < nr; ++i) {
        std::span<const std::byte> attrBytes;
        if (!c.bytes(attrSize, attrBytes)) return malformed(FeatEventDesc, "attr " + std::to_string(i) + " truncated");
        EventDesc e;
        auto attr = pmu::parseEventAttr(attrBytes);
        if (!attr) return malformed(FeatEventDesc, attr.error().message);
        e.attr = *attr;
        std::uint32_t nrIds = 0;
        if (!c.u32(nrIds) || !takeString(c, e.name) || nrIds > c.left() / 8)
            return malformed(FeatEventDesc, "event " + std::to_string(i) + " truncated");
        e.ids.resize(nrIds);
        for (auto& id : e.ids)
            (void)c.u64(id);
        info.events.push_back(std::move(e));
    }
    return {};
}

Status parseTopology(ByteCursor& c, HeaderInfo& info)
{
    auto& t = info.topology;
    if (!takeStringList(c, t.coreSiblings) || !takeStringList(c, t.threadSiblings))
        return malformed(FeatCpuTopology, "sibling lists truncated");
    // Optional parts (perf 4.x+): core/socket ids per available cpu, then dies.
    const std::uint32_t nr = info.nrCpusAvailable.value_or(0);
    if (nr == 0 || c.left() < std::size_t { nr } * 8) return {};
    t.cpus.resize(nr);
    for (auto& cpu : t.cpus) {
        (void)c.u32(cpu.coreId);
        (void)c.u32(cpu.socketId);
    }
    if (c.left() > 0) (void)takeStringList(c, t.dieSiblings);
    return {};
}

} // namespace

Status parseBuildIds(std::span<const std::byte> bytes, std::vector<BuildIdEntry>& out)
{
    ByteCursor c(bytes);
    while (c.left() >= 8) {
        const std::byte* start = c.position();
        auto h = pmu::readRecordHeader({ start, c.left() });
        if (!h || h->size < 36 || h->size > c.left())
            return malformed(FeatBuildId, "entry header size " + std::to_string(h ? h->size : 0));
        BuildIdEntry e;
        e.misc = h->misc;
        std::memcpy(&e.pid, start + 8, 4);
        std::memcpy(e.id.data, start + 12, 20);
        const auto sizeByte = std::to_integer<std::uint8_t>(start[32]);
        e.id.size = (h->misc & MiscBuildIdSize) && sizeByte <= 20 ? sizeByte : 20;
        const auto* name = reinterpret_cast<const char*>(start + 36);
        e.filename.assign(name, strnlen(name, h->size - 36u));
        out.push_back(std::move(e));
        (void)c.skip(h->size);
    }
    return {};
}

Status parseFeature(unsigned feature, std::span<const std::byte> bytes, HeaderInfo& info)
{
    ByteCursor c(bytes);
    Status st;
    auto str = [&](std::string& out) {
        if (!takeString(c, out)) st = malformed(feature, "string truncated");
    };
    switch (feature) {
    case FeatHostname:
        str(info.hostname);
        break;
    case FeatOsRelease:
        str(info.osRelease);
        break;
    case FeatVersion:
        str(info.version);
        break;
    case FeatArch:
        str(info.arch);
        break;
    case FeatCpuDesc:
        str(info.cpuDesc);
        break;
    case FeatCpuId:
        str(info.cpuId);
        break;
    case FeatNrCpus: {
        std::uint32_t avail = 0, online = 0;
        if (!c.u32(avail) || !c.u32(online))
            st = malformed(feature, "truncated");
        else {
            info.nrCpusAvailable = avail;
            info.nrCpusOnline = online;
        }
        break;
    }
    case FeatTotalMem: {
        std::uint64_t kb = 0;
        if (!c.u64(kb))
            st = malformed(feature, "truncated");
        else
            info.totalMemKb = kb;
        break;
    }
    case FeatCmdline:
        if (!takeStringList(c, info.cmdline)) st = malformed(feature, "string list truncated");
        break;
    case FeatEventDesc:
        st = parseEventDesc(c, info);
        break;
    case FeatCpuTopology:
        st = parseTopology(c, info);
        break;
    case FeatBuildId:
        st = parseBuildIds(bytes, info.buildIds);
        break;
    case FeatBranchStack:
        info.branchStack = true;
        break;
    case FeatGroupDesc: {
        std::uint32_t nr = 0;
        if (!c.u32(nr) || nr > c.left() / 12) {
            st = malformed(feature, "truncated");
            break;
        }
        info.groups.resize(nr);
        for (auto& g : info.groups)
            if (!takeString(c, g.name) || !c.u32(g.leaderIndex) || !c.u32(g.members)) {
                st = malformed(feature, "group truncated");
                break;
            }
        break;
    }
    case FeatPmuMappings: { // {u32 nr; {u32 type; perf_header_string name}[nr]} (perf util/header.c)
        std::uint32_t nr = 0;
        if (!c.u32(nr) || nr > c.left() / 8) {
            st = malformed(feature, "truncated");
            break;
        }
        for (std::uint32_t i = 0; i < nr; ++i) {
            std::pair<std::uint32_t, std::string> m;
            if (!c.u32(m.first) || !takeString(c, m.second)) {
                st = malformed(feature, "mapping truncated");
                break;
            }
            info.pmuMappings.push_back(std::move(m));
        }
        break;
    }
    case FeatSampleTime: { // {u64 first_sample_time; u64 last_sample_time} (perf util/header.c write_sample_time)
        std::uint64_t first = 0, last = 0;
        if (!c.u64(first) || !c.u64(last))
            st = malformed(feature, "truncated");
        else
            info.sampleTime = std::make_pair(first, last);
        break;
    }
    case FeatCache: { // {u32 version = 1; u32 cnt; {u32 level, line_size, sets, ways; 3 strings}[cnt]} (write_cache)
        std::uint32_t version = 0, cnt = 0;
        if (!c.u32(version) || !c.u32(cnt) || version != 1 || cnt > c.left() / 28) {
            st = malformed(feature, "version " + std::to_string(version) + ", " + std::to_string(cnt) + " levels");
            break;
        }
        info.caches.resize(cnt);
        for (auto& l : info.caches)
            if (!c.u32(l.level) || !c.u32(l.lineSize) || !c.u32(l.sets) || !c.u32(l.ways) || !takeString(c, l.type)
                || !takeString(c, l.size) || !takeString(c, l.map)) {
                st = malformed(feature, "level truncated");
                break;
            }
        break;
    }
    case FeatCompressed: {
        std::uint32_t version = 0, type = 0, level = 0;
        if (!c.u32(version) || !c.u32(type) || !c.u32(level))
            st = malformed(feature, "truncated");
        else
            info.compressionLevel = level;
        break;
    }
    default:
        info.skippedFeatures.push_back(feature);
        info.sections.push_back({ feature, bytes.size(), false });
        return {};
    }
    info.sections.push_back({ feature, bytes.size(), true });
    if (!st) info.warnings.push_back(st.error().message);
    return st;
}

} // namespace rdt::perfdata

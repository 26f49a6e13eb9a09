// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReplaySourceAdapter.h"

#include "session/ReplaySource.h"
#include "session/SessionReader.h"

#include "models/EngineAllocation.h"
#include "platform/CpuFeatures.h"
#include "platform/CpuidDump.h"
#include "rdt/CacheSize.h"
#include "rdt/CapabilitiesText.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

namespace {
using rdt::session::ReplaySource;

class ReplayFeed : public SampleFeed {
public:
    ReplayFeed(std::shared_ptr<ReplaySource> replay, SourceDescription description)
        : m_replay(std::move(replay))
        , m_description(std::move(description))
    { }
    SourceDescription description() const override { return m_description; }
    void drain(DrainedFrame& out, std::size_t maxBatches) override
    {
        // About 64 samples per batch: bound one frame's work like the live pump does.
        auto update = m_replay->poll(maxBatches * 64);
        out.reset = update.seeked;
        for (auto& b : update.batches)
            out.batches.push_back(std::move(b));
        for (auto& c : update.allocations)
            out.changes.push_back(std::move(c));
    }

private:
    std::shared_ptr<ReplaySource> m_replay;
    SourceDescription m_description;
};

class ReplayControlAdapter : public ReplayControl {
public:
    explicit ReplayControlAdapter(std::shared_ptr<ReplaySource> replay)
        : m_replay(std::move(replay))
    { }
    std::uint64_t durationNs() const override { return m_replay->endNs() - m_replay->startNs(); }
    std::uint64_t positionNs() const override { return m_replay->position() - m_replay->startNs(); }
    bool playing() const override { return m_replay->playing(); }
    void setPlaying(bool playing) override { playing ? m_replay->play() : m_replay->pause(); }
    double speed() const override { return m_replay->speed(); }
    void setSpeed(double factor) override { m_replay->setSpeed(factor); }
    void seek(std::uint64_t positionNs) override { m_replay->seek(m_replay->startNs() + positionNs); }

private:
    std::shared_ptr<ReplaySource> m_replay;
};

/// The recorded machine's features from the session's CPUID snapshot; none for older or damaged files.
std::optional<rdt::CpuFeatures> recordedCpu(const std::string& cpuidJson)
{
    if (cpuidJson.empty()) return std::nullopt;
    auto table = rdt::cpuidTableFromJson(cpuidJson);
    if (!table) return std::nullopt;
    return rdt::decodeCpuFeatures(*table);
}

/// CBM lengths per cache resource from the recorded CPUID (CPUID.10H.1/10H.2:EAX[4:0], SDM 20.19.4.2); empty when
/// the sub-leaves are unknown.
std::map<std::string, int> cbmLengthsOf(const rdt::CpuFeatures& f)
{
    std::map<std::string, int> lengths;
    for (const auto& [prefix, cat] : { std::pair { "L3", &f.allocation.l3 }, std::pair { "L2", &f.allocation.l2 } }) {
        if (!cat->detailsKnown) continue;
        for (const char* suffix : { "", "CODE", "DATA" })
            lengths[std::string(prefix) + suffix] = static_cast<int>(cat->cbmLength);
    }
    return lengths;
}

/// A recorded bandwidth resource's capabilities as the kernel listed them on the recording machine. First resctrl's
/// own rules as the session's topology line recorded them (the unit included since this version; before it, a
/// min_bandwidth of 0 is AMD's, as detectBandwidthUnit concludes from info/). Without that line, from the CPUID
/// snapshot: AMD MB/SMBA in 1/8 GB/s up to 1 << the length of CPUID.80000020H.1/.2:EAX; Intel MB in percent, with
/// min_bandwidth and bandwidth_gran 100 - the maximum delay of CPUID.10H.3:EAX[11:0] when linear (SDM 20.19.7.1). A
/// value over 100 was recorded under mba_MBps. With neither: resctrl's usual 10 % steps.
rdt::ResourceCaps recordedBandwidthResource(
    const std::string& name, const rdt::CpuFeatures* cpu, const rdt::RecordedResource* recorded, unsigned largestValue)
{
    if (recorded && recorded->unitRecorded) return recorded->caps;
    rdt::ResourceCaps r;
    r.name = name;
    r.kind = rdt::ResourceKind::Bandwidth;
    if (name == "CBA") { // the MSR backend's throttle levels (SDM 20.19.8), never a resctrl resource
        r.bandwidthUnit = rdt::BandwidthUnit::ThrottleLevel;
        r.minBandwidth = 0;
        r.bandwidthGran = 1;
        r.maxBandwidth
            = std::max(largestValue, cpu && cpu->allocation.cba.detailsKnown ? cpu->allocation.cba.maxLevel : 0u);
        return r;
    }
    const bool amd = recorded ? recorded->caps.minBandwidth == 0 : cpu && cpu->identity.isAmd();
    if (largestValue > 100 && !amd) {
        r.bandwidthUnit = rdt::BandwidthUnit::MiBps;
        r.mbpsMode = true;
    } else if (amd) {
        const unsigned length = !cpu ? 0
            : name == "SMBA"         ? cpu->amdQos.smbaBandwidthLength
                                     : cpu->amdQos.mbaBandwidthLength;
        r.bandwidthUnit = rdt::BandwidthUnit::EighthGBps;
        r.minBandwidth = 0;
        r.maxBandwidth = length > 0 && length < 32 ? 1u << length : std::max(2048u, largestValue);
    } else if (recorded) {
        r.minBandwidth = recorded->caps.minBandwidth;
        r.bandwidthGran = recorded->caps.bandwidthGran;
    } else if (cpu && cpu->allocation.mba.detailsKnown && cpu->allocation.mba.maxThrottle > 0) {
        r.setIntelMbaBounds(cpu->allocation.mba.maxThrottle, cpu->allocation.mba.linear);
    } else {
        r.minBandwidth = 10;
        r.bandwidthGran = 10;
    }
    return r;
}

/// What a replay knows of the recording machine, read once from the session: from its CPUID snapshot the CBM
/// lengths, ways and cache sizes; from its topology text resctrl's rules per resource.
struct RecordedMachine {
    std::map<std::string, int> cbmLengths;
    std::map<std::string, int> ways;
    std::map<std::string, std::uint64_t> cacheBytes;
    std::optional<rdt::CpuFeatures> cpu;
    std::map<std::string, rdt::RecordedResource> resources;

    explicit RecordedMachine(const rdt::session::MachineInfo& machine)
        : cpu(recordedCpu(machine.cpuidJson))
    {
        if (cpu) {
            cbmLengths = cbmLengthsOf(*cpu);
            cacheBytes = ::cacheBytes(*cpu);
        }
        rdt::Capabilities recorded;
        for (auto& r : rdt::parseCapabilitiesText(machine.topology)) {
            recorded.resources.push_back(r.caps);
            resources.emplace(r.caps.name, std::move(r));
        }
        // Way counts of the recorded machine, never of the one replaying it, and only where its CPUID describes
        // the cache resctrl controlled (the same rule as a live source).
        if (cpu) ways = cacheWaysFor(*cpu, recorded);
    }
    const rdt::RecordedResource* resource(const std::string& name) const
    {
        const auto it = resources.find(name);
        return it == resources.end() ? nullptr : &it->second;
    }
};

/// The allocation recorded at `timeNs` as the heatmap's state. The CBM length comes from the session's CPUID
/// snapshot; without one (older or damaged files) it is the widest recorded mask (the default group's mask is the
/// full mask unless someone shrank it before recording started).
AllocationState allocationAt(
    const ReplaySource& replay, std::uint64_t timeNs, bool simulated, const RecordedMachine& machine)
{
    AllocationState state;
    state.simulated = simulated;
    state.writable = false;
    state.readOnlyReason = "replaying a recorded session";
    std::map<std::string, int> cbmLength;
    std::map<std::string, unsigned> largestBandwidth; // per recorded bandwidth resource
    std::map<std::string, GroupAllocation> groups;
    std::set<int> domains;
    for (const auto& [key, value] : replay.allocationStateAt(timeNs)) {
        const auto& [group, resource, domain] = key;
        auto& g = groups[group];
        g.group = group;
        domains.insert(domain);
        const bool cache = resource.rfind("L3", 0) == 0 || resource.rfind("L2", 0) == 0;
        if (cache) {
            const auto mask = std::strtoull(value.c_str(), nullptr, 16); // damaged text reads as 0: no ways
            g.cbm[resource][domain] = mask;
            int bits = 0;
            while (bits < 64 && (mask >> bits) != 0)
                ++bits;
            const auto known = machine.cbmLengths.find(resource);
            cbmLength[resource]
                = std::max({ cbmLength[resource], bits, known == machine.cbmLengths.end() ? 0 : known->second });
        } else {
            const auto v = static_cast<unsigned>(std::strtoul(value.c_str(), nullptr, 10));
            g.bandwidth[resource][domain] = v;
            largestBandwidth[resource] = std::max(largestBandwidth[resource], v);
        }
    }
    for (const auto& [name, bits] : cbmLength) {
        CacheSchema c;
        c.name = name;
        c.cbmLength = bits;
        const auto w = machine.ways.find(c.cacheName());
        c.ways = w == machine.ways.end() ? 0 : w->second;
        if (c.ways > 0 && machine.cpu) c.waysLeaf = cacheParametersLeaf(*machine.cpu);
        // The CPUID snapshot's size where it is the cache resctrl recorded (its size, or whole SNC shares of it:
        // with SNC resctrl's size is one node's), else resctrl's as recorded (a fixture tree read on another CPU).
        const rdt::RecordedResource* recorded = machine.resource(name);
        const std::uint64_t resctrlBytes = recorded ? recorded->caps.bytesPerBit * recorded->caps.cbmBits : 0;
        const auto size = machine.cacheBytes.find(c.cacheName());
        const std::uint64_t cpuidBytes = size == machine.cacheBytes.end() ? 0 : size->second;
        c.cacheBytes = rdt::wholeCacheBytes(resctrlBytes, cpuidBytes);
        state.caches.push_back(c);
    }
    for (const auto& [name, largest] : largestBandwidth)
        state.bandwidths.push_back(bandwidthSchemaOf(
            recordedBandwidthResource(name, machine.cpu ? &*machine.cpu : nullptr, machine.resource(name), largest)));
    state.domains.assign(domains.begin(), domains.end());
    for (auto& [path, g] : groups)
        state.groups.push_back(std::move(g)); // std::map order puts "" (the default group) first
    return state;
}
} // namespace

rdt::Result<SourceBundle> openReplaySource(const QString& path)
{
    auto reader = rdt::session::SessionReader::open(path.toStdString());
    if (!reader) return reader.error();
    std::shared_ptr<rdt::session::SessionReader> shared = std::move(reader.value());
    const auto meta = shared->meta();
    auto replay = std::make_shared<ReplaySource>(shared);
    replay->play();

    SourceDescription description;
    description.kind = SourceKind::Replay;
    description.name = "replay:" + path.toStdString();
    description.reason = "recorded from " + (meta.source.empty() ? std::string("an unknown source") : meta.source);
    if (!meta.host.empty()) description.reason += " on " + meta.host;
    if (meta.simulated) description.reason += " (SIMULATED data)";
    if (!shared->issues().empty())
        description.reason
            += "; " + std::to_string(shared->issues().size()) + " problem(s) reading it: " + shared->issues().front();

    SourceBundle bundle;
    bundle.feed = std::make_unique<ReplayFeed>(replay, description);
    bundle.replay = std::make_unique<ReplayControlAdapter>(replay);
    ReplaySource* raw = replay.get();
    const bool simulated = meta.simulated;
    auto machine = std::make_shared<const RecordedMachine>(shared->machine());
    bundle.readAllocation = [raw, simulated, machine]() -> rdt::Result<AllocationState> {
        return allocationAt(*raw, raw->position(), simulated, *machine);
    };
    bundle.readOnlyReason = QStringLiteral("replaying a recorded session");
    bundle.engine = replay;
    return bundle;
}

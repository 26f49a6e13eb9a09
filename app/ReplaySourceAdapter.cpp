// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReplaySourceAdapter.h"

#include "session/ReplaySource.h"
#include "session/SessionReader.h"

#include "engine/AllocationLayoutOf.h"
#include "models/EngineAllocation.h"
#include "rdt/Schemata.h"
#include "session/RecordedCapabilities.h"

#include <algorithm>
#include <map>
#include <optional>

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

/// The allocation recorded at `timeNs` as the heatmap's state: the recording machine's capabilities as the session
/// tells them (session/RecordedCapabilities.h) laid out by the engine's one rule (engine/AllocationLayoutOf.h), the
/// same a live source's layout comes from.
AllocationState allocationAt(const ReplaySource& replay, std::uint64_t timeNs, bool simulated,
    const rdt::session::MachineInfo& machine, const rdt::CpuFeatures* cpu)
{
    const auto recorded = replay.allocationStateAt(timeNs);
    std::map<std::string, GroupAllocation> groups;
    for (const auto& [key, value] : recorded) {
        const auto& [group, resource, domain] = key;
        auto& g = groups[group];
        g.group = group;
        if (rdt::isCacheResource(resource)) {
            const auto mask = rdt::parseMask(value);
            g.cbm[resource][domain] = mask ? *mask : 0; // damaged text: no ways
        } else {
            const auto v = rdt::parseBandwidth(value);
            g.bandwidth[resource][domain] = static_cast<unsigned>(v ? *v : 0);
        }
    }
    const auto seen = rdt::session::recordedValuesOf(recorded);
    const auto caps = rdt::session::recordedCapabilities(machine, cpu, seen);
    AllocationState state = allocationStateOf(rdt::engine::allocationLayoutOf(caps, cpu));
    state.simulated = simulated;
    state.writable = false;
    state.readOnlyReason = "replaying a recorded session";
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
    const auto machine = std::make_shared<const rdt::session::MachineInfo>(shared->machine());
    const auto cpu = std::make_shared<const std::optional<rdt::CpuFeatures>>(rdt::session::recordedCpu(*machine));
    bundle.readAllocation = [raw, simulated, machine, cpu]() -> rdt::Result<AllocationState> {
        return allocationAt(*raw, raw->position(), simulated, *machine, *cpu ? &**cpu : nullptr);
    };
    bundle.readOnlyReason = QStringLiteral("replaying a recorded session");
    bundle.engine = replay;
    return bundle;
}

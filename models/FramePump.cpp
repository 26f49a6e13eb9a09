// SPDX-License-Identifier: GPL-3.0-or-later
#include "FramePump.h"
#include "rdt/AllocationChangeText.h"
#include "rdt/GroupNames.h"

#include "core/Time.h"

#include <map>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace {
constexpr std::size_t kMaxBatchesPerFrame = 4096; // a 10 s stall at 400 Hz; the rest waits for the next frame
constexpr std::size_t kMaxMarkers = 10000;

QString markerLabel(const rdt::AllocationChanged& c)
{
    QString text = QString::fromStdString(rdt::allocationChangeTarget(c)) + QLatin1Char(' ')
        + (c.oldValue.empty() ? QString() : QString::fromStdString(c.oldValue) + QLatin1Char(' ')) // none: initial
        + QStringLiteral("\u2192 ") + QString::fromStdString(c.newValue);
    if (!c.who.empty()) text += QStringLiteral(" (") + QString::fromStdString(c.who) + QLatin1Char(')');
    if (!c.ok) text += QStringLiteral(" rejected: ") + QString::fromStdString(c.message);
    return text;
}
} // namespace

FramePump::FramePump(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<FrameUpdate>();
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &FramePump::pumpOnce);
    setFrameRate(30.0);
}

FramePump::~FramePump() = default;

void FramePump::setFeed(std::unique_ptr<SampleFeed> feed)
{
    m_feed = std::move(feed);
    ++m_generation;
    m_haveOrigin = false;
    m_now = 0;
    m_anchorWallNs = 0;
    m_store.clear();
    m_telemetry.clear();
    m_markers.clear();
    Q_EMIT seriesReset();
    Q_EMIT sourceChanged(source());
}

SourceDescription FramePump::source() const
{
    return m_feed ? m_feed->description() : SourceDescription {};
}

void FramePump::setFrameRate(double hz)
{
    if (hz <= 0) return;
    m_hz = hz;
    m_timer.setInterval(static_cast<int>(1000.0 / hz));
}

void FramePump::start()
{
    m_timer.start();
}
void FramePump::stop()
{
    m_timer.stop();
}

void FramePump::resetSeries()
{
    m_store.clear();
    m_telemetry.clear();
    m_markers.clear();
    Q_EMIT seriesReset();
}

double FramePump::secondsOf(std::uint64_t timeNs) const
{
    if (!m_haveOrigin) return 0;
    return (static_cast<double>(timeNs) - static_cast<double>(m_originNs)) * 1e-9;
}

std::optional<std::uint64_t> FramePump::monotonicNsOf(double t) const
{
    if (!m_haveOrigin) return std::nullopt;
    const auto ns = [](double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1e9)); };
    std::int64_t mono = 0;
    switch (source().kind) {
    case SourceKind::Live:
        mono = static_cast<std::int64_t>(m_originNs) + ns(t);
        break;
    case SourceKind::Simulated:
        if (m_anchorWallNs == 0) return std::nullopt;
        mono = static_cast<std::int64_t>(m_anchorWallNs) - ns(m_anchorT - t);
        break;
    case SourceKind::Replay:
    case SourceKind::None:
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(std::max<std::int64_t>(mono, 0));
}

std::optional<double> FramePump::secondsOfMonotonic(std::uint64_t monoNs) const
{
    if (!m_haveOrigin) return std::nullopt;
    switch (source().kind) {
    case SourceKind::Live:
        return secondsOf(monoNs);
    case SourceKind::Simulated:
        if (m_anchorWallNs == 0) return std::nullopt;
        return m_anchorT + (static_cast<double>(monoNs) - static_cast<double>(m_anchorWallNs)) * 1e-9;
    case SourceKind::Replay:
    case SourceKind::None:
        break;
    }
    return std::nullopt;
}

int FramePump::pumpOnce()
{
    if (!m_feed) return 0;
    m_scratch.batches.clear();
    m_scratch.changes.clear();
    m_scratch.notes.clear();
    m_scratch.reset = false;
    m_scratch.connectionLost.clear();
    m_feed->drain(m_scratch, kMaxBatchesPerFrame);
    if (m_scratch.reset) resetSeries(); // the time origin stays: a seek keeps the session's axis
    if (m_scratch.batches.empty() && m_scratch.changes.empty() && m_scratch.notes.empty()) return 0;
    Q_EMIT drained(m_scratch);

    if (!m_haveOrigin) {
        // The first thing seen sets t = 0, so a recorded session and a live run share the same axis shape.
        std::uint64_t first = UINT64_MAX;
        for (const auto& b : m_scratch.batches)
            first = std::min(first, b.timeNs);
        for (const auto& c : m_scratch.changes)
            first = std::min(first, c.timeNs);
        for (const auto& n : m_scratch.notes)
            first = std::min(first, n.timeNs);
        m_originNs = first;
        m_haveOrigin = true;
    }
    for (const auto& batch : m_scratch.batches)
        ingest(batch);
    if (!m_scratch.batches.empty()) {
        m_anchorT = secondsOf(m_scratch.batches.back().timeNs);
        m_anchorWallNs = rdt::monotonicNs();
    }
    for (const auto& c : m_scratch.changes) {
        m_markers.push_back({ secondsOf(c.timeNs), markerLabel(c), c.ok });
        m_now = std::max(m_now, m_markers.back().t);
    }
    for (const auto& n : m_scratch.notes) {
        m_markers.push_back({ secondsOf(n.timeNs), QString::fromStdString(n.text), n.ok });
        m_now = std::max(m_now, m_markers.back().t);
    }
    while (m_markers.size() > kMaxMarkers
        || (!m_markers.empty() && m_markers.front().t < m_now - m_store.historySeconds()))
        m_markers.pop_front();

    FrameUpdate update;
    update.generation = m_generation;
    update.batches = static_cast<int>(m_scratch.batches.size());
    update.now = m_now;
    if (!m_scratch.batches.empty()) update.latest = m_scratch.batches.back();
    update.changes = m_scratch.changes;
    update.dropped = m_scratch.droppedTotal;
    update.connectionLost = m_scratch.connectionLost;
    Q_EMIT frame(update);
    return update.batches;
}

void FramePump::ingest(const rdt::RdtSampleBatch& batch)
{
    // One point per group per batch: the domains of a group are summed (occupancy and bandwidth add up across
    // L3 domains); the per-domain readings stay visible in the MonitorModel.
    // Sorted by name, so a group's index (and with it its colour) does not depend on hash order.
    // A flagged reading is not a number to add: a domain whose occupancy read Error/Unavailable, or whose MBM rate
    // is unknown (the first sample of a series has no delta; Error, Unavailable, Unassigned; a counter reset), makes
    // the group's point for that metric NaN, which the store keeps and the plot draws as a gap, never as 0.
    constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    std::map<QString, std::array<double, kMetricCount>> perGroup;
    for (const auto& s : batch.samples) {
        auto& v = perGroup[QString::fromStdString(s.group)];
        const auto add = [&](Metric m, double value, bool unknown) {
            auto& slot = v[static_cast<std::size_t>(m)];
            slot = unknown ? kUnknown : slot + value; // NaN stays NaN once one domain is unknown
        };
        add(Metric::Occupancy, static_cast<double>(s.occupancyBytes), (s.flags & rdt::kOccupancyUnknown) != 0);
        add(Metric::BandwidthTotal, s.mbmTotalBps, (s.flags & rdt::kMbmTotalRateUnknown) != 0);
        add(Metric::BandwidthLocal, s.mbmLocalBps, (s.flags & rdt::kMbmLocalRateUnknown) != 0);
        add(Metric::BandwidthRemote, s.mbmRemoteBps(), (s.flags & rdt::kMbmRemoteRateUnknown) != 0);
    }
    const double t = secondsOf(batch.timeNs);
    for (const auto& [group, values] : perGroup)
        m_store.append(m_store.groupIndex(group), t, values);
    if (!batch.telemetry.empty()) m_telemetry.append(t, batch.telemetry);
    m_now = std::max(m_now, t);
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Timeline.h"

#include "WindowResolve.h"
#include "session/SessionReader.h"

#include <fstream>

namespace rdt::compare {

Result<Timeline> loadTimeline(const std::string& path)
{
    {
        std::ifstream in(path, std::ios::binary);
        char magic[16] = {};
        in.read(magic, sizeof magic);
        if (std::string(magic, static_cast<std::size_t>(in.gcount())).rfind("SQLite format 3", 0) != 0)
            return Timeline {};
    }
    auto opened = session::SessionReader::open(path);
    if (!opened) return opened.error();
    auto& reader = **opened;
    Timeline t;
    const std::uint64_t origin = reader.originNs();
    t.lengthS = reader.sampleCount() ? secondsSince(origin, reader.lastTimeNs()) : 0;
    auto buckets = reader.summary(1);
    if (buckets) {
        // Buckets come ordered by (bucket, group, domain): domains of one second are consecutive per group.
        for (const auto& b : *buckets) {
            const double s = secondsSince(origin, (b.bucket * 1'000'000'000ull) + 500'000'000ull);
            auto& points = t.groups[b.group];
            if (points.empty() || points.back().timeS != s) points.push_back(TimelinePoint { s, 0, 0 });
            points.back().occupancyBytes += b.occMean;
            points.back().totalBps += b.totalMean;
        }
    }
    for (const auto& m : reader.markers())
        if (m.timeNs > origin || m.kind == "note")
            t.markers.push_back(TimelineMarker { secondsSince(origin, m.timeNs), m.kind, m.text });
    return t;
}

} // namespace rdt::compare

// SPDX-License-Identifier: GPL-3.0-or-later
// --around-marker: the span measured before a change's marker (from the marker before it) and the span after it
// (from the next marker to the one after), as `blame --contain --record` lays them out; markers written at the same
// instant are one boundary, and a marker with nothing on one side is an error that lists the markers.
#include "compare/Profile.h"
#include "compare/WindowResolve.h"

#include <gtest/gtest.h>

using namespace rdt::compare;

namespace {

// A blame run's markers: probes, the knee sweep, the containment's measured spans, then the outcome (three at once).
const std::vector<TimedMarker> kMarkers = {
    { 0.0, "blame: observing victim and its neighbours" },
    { 4.0, "blame: probe: fencing streamer with L3:0=1" },
    { 10.0, "blame: knee: sweeping victim's ways with streamer isolated, for its knee" },
    { 41.0, "blame: before containing streamer: measuring victim" },
    { 43.0, "blame: contain: streamer to L3:0=f" },
    { 44.0, "blame: after containing streamer (settled): measuring victim" },
    { 46.0, "blame victim: on L3 domain 0 ..." },
    { 46.0, "blame contain streamer: contained streamer ..." },
    { 46.0, "blame ended" },
};

std::pair<double, double> resolved(const Window& w, double lengthS = 46.0)
{
    std::vector<std::string> notes;
    auto r = resolveWindow(w, lengthS, kMarkers, notes);
    EXPECT_TRUE(r.ok()) << r.error().toString();
    return r.ok() ? *r : std::pair { -1.0, -1.0 };
}

} // namespace

TEST(CompareAroundMarker, BeforeAndAfterAreTheMeasuredSpansAroundTheChange)
{
    const auto around = parseAroundMarker("blame: contain:");
    ASSERT_TRUE(around.ok());
    const auto [before, after] = *around;
    EXPECT_EQ(before.kind, Window::Kind::BeforeMarker);
    EXPECT_EQ(after.kind, Window::Kind::AfterMarker);
    EXPECT_EQ(resolved(before), (std::pair { 41.0, 43.0 }));
    // The settle time (43..44 s) is left out; the span ends where the outcome's markers begin, or at the end.
    EXPECT_EQ(resolved(after), (std::pair { 44.0, 46.0 }));
    EXPECT_EQ(resolved(after, 50.0), (std::pair { 44.0, 46.0 }));
    EXPECT_EQ(before.describe(), "before marker 'blame: contain:'");
    EXPECT_EQ(after.describe(), "after marker 'blame: contain:'");
}

TEST(CompareAroundMarker, TheFirstMarkerStartsAtTheRecordingsStart)
{
    Window before = parseAroundMarker("fencing streamer")->first;
    EXPECT_EQ(resolved(before), (std::pair { 0.0, 4.0 }));
    Window w = parseAroundMarker("observing")->first;
    std::vector<std::string> notes;
    auto r = resolveWindow(w, 46.0, kMarkers, notes);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("nothing was recorded before"), std::string::npos) << r.error().message;
}

TEST(CompareAroundMarker, MissingMarkersAndMissingSpansAreErrorsThatListTheMarkers)
{
    std::vector<std::string> notes;
    auto none = resolveWindow(parseAroundMarker("no such marker")->second, 46.0, kMarkers, notes);
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message.find("no marker contains 'no such marker'"), std::string::npos);
    EXPECT_NE(none.error().advice.find("blame: contain: streamer"), std::string::npos) << none.error().advice;
    // The outcome's markers come last: after them there is no span to compare.
    auto last = resolveWindow(parseAroundMarker("blame ended")->second, 46.0, kMarkers, notes);
    ASSERT_FALSE(last.ok());
    EXPECT_NE(last.error().message.find("no marker after"), std::string::npos) << last.error().message;
    EXPECT_FALSE(parseAroundMarker("").ok());
}

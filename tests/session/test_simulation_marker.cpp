// SPDX-License-Identifier: GPL-3.0-or-later
// How a scenario's events are stored and labelled: one rule for every recorder and for the plots' markers.
#include "session/SimulationMarker.h"

#include <gtest/gtest.h>

using namespace rdt;

TEST(SimulationMarker, KindsFollowTheEvent)
{
    EXPECT_EQ(session::markerOf(SimulationEvent { 5, "Fence it", true, true }).kind, "note");
    EXPECT_EQ(session::markerOf(SimulationEvent { 5, "write a/schemata L3:0=3", true, false }).kind, "scenario");
    const auto failed = session::markerOf(SimulationEvent { 7, "write a/schemata L3:0=5", false, false });
    EXPECT_EQ(failed.kind, "scenario-failed");
    EXPECT_EQ(failed.timeNs, 7u);
    EXPECT_EQ(failed.text, "write a/schemata L3:0=5");
}

TEST(SimulationMarker, HeadlineIsTheNotesFirstClause)
{
    EXPECT_EQ(session::noteHeadline("Fence the streamer into 2 ways (L3:0=003, SDM 20.19.2): its fills can only evict "
                                    "its own lines now."),
        "Fence the streamer into 2 ways");
    EXPECT_EQ(session::noteHeadline("Cap the streamer with MBA at 30% (SDM 20.19.7): its memory bandwidth drops."),
        "Cap the streamer with MBA at 30%");
    EXPECT_EQ(session::noteHeadline("Phase two: the victim grows. Then it shrinks."), "Phase two");
    EXPECT_EQ(session::noteHeadline("One sentence."), "One sentence");
    EXPECT_EQ(session::noteHeadline(""), "");
}

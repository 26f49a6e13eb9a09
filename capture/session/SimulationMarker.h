// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/SimulationControl.h"
#include "session/SessionTypes.h"

namespace rdt::session {

/// How a session stores what the scenario did or said (docs/SESSION-FORMAT.md "markers"): a lesson note as "note",
/// a timed command as "scenario", a command that failed as "scenario-failed". One rule for every recorder (the
/// CLI's record, the GUI's Record).
Marker markerOf(const SimulationEvent& event);
/// The headline of a scenario's note: its first clause, up to " (", ": " or ". " ("Fence the streamer into 2 ways
/// (L3:0=003, SDM 20.19.2): its fills ..." -> "Fence the streamer into 2 ways"), what a plot's marker says for
/// the commands the note announces at the same time.
std::string noteHeadline(const std::string& noteText);

} // namespace rdt::session

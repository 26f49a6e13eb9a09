// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/SimulationControl.h"
#include "session/SessionTypes.h"

namespace rdt::session {

/// How a session stores what the scenario did or said (docs/SESSION-FORMAT.md "markers"): a lesson note as "note",
/// a timed command as "scenario", a command that failed as "scenario-failed". One rule for every recorder (the
/// CLI's record, the GUI's Record).
Marker markerOf(const SimulationEvent& event);

} // namespace rdt::session

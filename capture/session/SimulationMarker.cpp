// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimulationMarker.h"

namespace rdt::session {

Marker markerOf(const SimulationEvent& event)
{
    return Marker { event.timeNs, event.note ? "note" : (event.ok ? "scenario" : "scenario-failed"), event.text };
}

} // namespace rdt::session

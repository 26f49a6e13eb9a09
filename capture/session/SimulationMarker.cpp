// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimulationMarker.h"

#include <algorithm>

namespace rdt::session {

Marker markerOf(const SimulationEvent& event)
{
    return Marker { event.timeNs, event.note ? "note" : (event.ok ? "scenario" : "scenario-failed"), event.text };
}

std::string noteHeadline(const std::string& noteText)
{
    std::size_t end = noteText.size();
    for (const char* stop : { " (", ": ", ". " })
        end = std::min(end, noteText.find(stop));
    std::string headline = noteText.substr(0, end);
    if (!headline.empty() && headline.back() == '.') headline.pop_back();
    return headline;
}

} // namespace rdt::session

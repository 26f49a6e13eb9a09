// SPDX-License-Identifier: GPL-3.0-or-later
#include "WindowResolve.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace rdt::compare {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string markerList(const std::vector<TimedMarker>& markers)
{
    if (markers.empty()) return "the recording has no markers";
    std::string t = "its markers:";
    char buf[32];
    for (std::size_t i = 0; i < markers.size() && i < 12; ++i) {
        std::snprintf(buf, sizeof buf, "\n  %9.3f s  ", markers[i].timeS);
        t += buf + markers[i].text.substr(0, 100);
    }
    if (markers.size() > 12) t += "\n  ... (" + std::to_string(markers.size() - 12) + " more)";
    return t;
}

/// Index of the first marker from `start` on whose text contains `needle` (case-insensitive); size() when none.
std::size_t findMarker(const std::vector<TimedMarker>& markers, const std::string& needle, std::size_t start)
{
    const std::string n = lower(needle);
    for (std::size_t i = start; i < markers.size(); ++i)
        if (lower(markers[i].text).find(n) != std::string::npos) return i;
    return markers.size();
}

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", s);
    return buf;
}

} // namespace

double secondsSince(std::uint64_t originNs, std::uint64_t timeNs)
{
    return timeNs > originNs ? static_cast<double>(timeNs - originNs) * 1e-9 : 0.0;
}

Result<std::pair<double, double>> resolveWindow(
    const Window& window, double lengthS, const std::vector<TimedMarker>& markers, std::vector<std::string>& notes)
{
    switch (window.kind) {
    case Window::Kind::Whole:
        return std::pair { 0.0, lengthS };
    case Window::Kind::Range: {
        double from = window.fromS.value_or(0.0), to = window.toS.value_or(lengthS);
        if (from >= lengthS)
            return makeError(
                "the window " + window.describe() + " starts after the recording ends (" + seconds(lengthS) + ")",
                "choose a window inside the recording (`rdtscope-cli summary FILE` shows its length)");
        if (to > lengthS) {
            notes.push_back(
                "the window ends at " + seconds(to) + ", after the recording (" + seconds(lengthS) + "): clipped");
            to = lengthS;
        }
        return std::pair { from, to };
    }
    case Window::Kind::Markers: {
        // Markers are in time order; the second is looked for after the first, so one text can name both ends.
        const std::size_t first = findMarker(markers, window.fromMarker, 0);
        if (first == markers.size())
            return makeError(
                "no marker contains '" + window.fromMarker + "'", "pick text from one marker; " + markerList(markers));
        const std::size_t second = findMarker(markers, window.toMarker, first + 1);
        if (second == markers.size())
            return makeError("no marker containing '" + window.toMarker + "' after '" + markers[first].text + "'",
                "pick text from a later marker; " + markerList(markers));
        if (markers[second].timeS <= markers[first].timeS)
            return makeError(
                "the markers '" + window.fromMarker + "' and '" + window.toMarker + "' are at the same time",
                "pick markers at different times; " + markerList(markers));
        return std::pair { markers[first].timeS, markers[second].timeS };
    }
    case Window::Kind::BeforeMarker:
    case Window::Kind::AfterMarker: {
        const std::size_t at = findMarker(markers, window.fromMarker, 0);
        if (at == markers.size())
            return makeError(
                "no marker contains '" + window.fromMarker + "'", "pick text from one marker; " + markerList(markers));
        const double t = markers[at].timeS;
        // Markers at the change's own time (several written at once) are not spans: the neighbours are the
        // nearest markers at another time.
        if (window.kind == Window::Kind::BeforeMarker) {
            double from = 0;
            for (std::size_t i = at; i-- > 0;)
                if (markers[i].timeS < t) {
                    from = markers[i].timeS;
                    break;
                }
            if (from >= t)
                return makeError("nothing was recorded before the marker '" + markers[at].text + "'",
                    "pick a marker with a measured span before it; " + markerList(markers));
            return std::pair { from, t };
        }
        std::size_t next = at + 1;
        while (next < markers.size() && markers[next].timeS <= t)
            ++next;
        if (next == markers.size())
            return makeError("no marker after '" + markers[at].text + "' starts a span to compare",
                "the span after a change starts at the next marker (a blame containment writes one when the victim "
                "has settled); "
                    + markerList(markers));
        const double from = markers[next].timeS;
        double to = lengthS;
        for (std::size_t i = next + 1; i < markers.size(); ++i)
            if (markers[i].timeS > from) {
                to = markers[i].timeS;
                break;
            }
        if (to <= from)
            return makeError("nothing was recorded after the marker '" + markers[next].text + "'",
                "pick a marker with a measured span after it; " + markerList(markers));
        return std::pair { from, to };
    }
    }
    return std::pair { 0.0, lengthS };
}

} // namespace rdt::compare

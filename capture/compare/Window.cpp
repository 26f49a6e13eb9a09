// SPDX-License-Identifier: GPL-3.0-or-later
#include "Profile.h"

#include "core/BoundedFile.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace rdt::compare {

namespace {

Result<std::optional<double>> parseSeconds(const std::string& text, const std::string& whole)
{
    if (text.empty()) return std::optional<double> {};
    double v = 0;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc {} || ptr != end || !std::isfinite(v) || v < 0 || v > 1e9)
        return makeError("bad window '" + whole + "': '" + text + "' is not a number of seconds",
            "write FROM..TO in seconds since the recording's start, e.g. 10..20, ..20 or 10..");
    return std::optional<double>(v);
}

} // namespace

Result<Window> parseWindowRange(const std::string& text)
{
    const auto dots = text.find("..");
    if (dots == std::string::npos)
        return makeError("bad window '" + text + "': no '..'", "write FROM..TO in seconds, e.g. 10..20");
    auto from = parseSeconds(text.substr(0, dots), text);
    if (!from) return from.error();
    auto to = parseSeconds(text.substr(dots + 2), text);
    if (!to) return to.error();
    if (*from && *to && **to <= **from)
        return makeError("bad window '" + text + "': it ends before it starts", "write FROM..TO with FROM < TO");
    Window w;
    w.kind = Window::Kind::Range;
    w.fromS = *from;
    w.toS = *to;
    return w;
}

Result<Window> parseMarkerWindow(const std::string& text)
{
    const auto comma = text.find(',');
    if (comma == std::string::npos || comma == 0 || comma + 1 >= text.size())
        return makeError("bad marker pair '" + text + "'",
            "write --between-markers M1,M2 with two pieces of marker text (see `rdtscope-cli summary FILE`)");
    Window w;
    w.kind = Window::Kind::Markers;
    w.fromMarker = text.substr(0, comma);
    w.toMarker = text.substr(comma + 1);
    return w;
}

Result<std::pair<Window, Window>> parseAroundMarker(const std::string& text)
{
    if (text.empty())
        return makeError("empty marker text",
            "write --around-marker M with a piece of one marker's text (see `rdtscope-cli summary FILE`)");
    Window before, after;
    before.kind = Window::Kind::BeforeMarker;
    after.kind = Window::Kind::AfterMarker;
    before.fromMarker = after.fromMarker = text;
    return std::pair { before, after };
}

std::string Window::describe() const
{
    char buf[96];
    switch (kind) {
    case Kind::Whole:
        return "whole recording";
    case Kind::Range:
        std::snprintf(buf, sizeof buf, "%.6g..%.6g s", fromS.value_or(0.0), toS.value_or(0.0));
        if (!toS) return std::string(buf).substr(0, std::string(buf).find("..") + 2) + "end";
        return buf;
    case Kind::Markers:
        return "between markers '" + fromMarker + "' and '" + toMarker + "'";
    case Kind::BeforeMarker:
        return "before marker '" + fromMarker + "'";
    case Kind::AfterMarker:
        return "after marker '" + fromMarker + "'";
    }
    return {};
}

Result<Profile> loadProfile(const std::string& path, const LoadOptions& options)
{
    // Only a regular file: a FIFO would block the comparison forever (core/BoundedFile.h).
    auto magic = readFileHead(path, 16, "recording");
    if (!magic) return magic.error();
    const std::string& head = *magic;
    if (head.rfind("SQLite format 3", 0) == 0) return loadSessionProfile(path, options);
    if (head.rfind("PERFILE2", 0) == 0 || head.rfind("2ELIFREP", 0) == 0) return loadPerfDataProfile(path, options);
    return makeError(path + " is neither an rdtscope session nor a perf.data file",
        "compare session files (rdtscope-cli record -o FILE) or files from `perf record`");
}

} // namespace rdt::compare

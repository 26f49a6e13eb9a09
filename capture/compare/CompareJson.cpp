// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON form of a comparison (layout in CompareFormat.h and the README).
#include "CompareFormat.h"

#include "platform/Json.h"

#include <cmath>
#include <cstdio>

namespace rdt::compare {

namespace {

std::string num(double v)
{
    if (!std::isfinite(v)) return "null";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string opt(const std::optional<double>& v)
{
    return v ? num(*v) : "null";
}

std::string strings(const std::vector<std::string>& list)
{
    std::string out = "[";
    for (std::size_t i = 0; i < list.size(); ++i)
        out += (i ? "," : "") + json::quote(list[i]);
    return out + "]";
}

std::string side(const Profile& p)
{
    std::string out = "{\"path\":" + json::quote(p.path) + ",\"kind\":" + json::quote(p.kind)
        + ",\"source\":" + json::quote(p.source) + ",\"simulated\":" + (p.simulated ? "true" : "false")
        + ",\"machine\":" + json::quote(p.machine) + ",\"family\":" + (p.family ? std::to_string(*p.family) : "null")
        + ",\"model\":" + (p.model ? std::to_string(*p.model) : "null") + ",\"interval\":" + json::quote(p.interval)
        + ",\"recording_s\":" + num(p.recordingS) + ",\"window\":{\"from_s\":" + num(p.fromS)
        + ",\"to_s\":" + num(p.toS) + ",\"text\":" + json::quote(p.windowText) + "}" + ",\"instructions\":"
        + (p.instructions ? num(*p.instructions) : "null") + ",\"notes\":" + strings(p.notes) + ",\"changes\":[";
    for (std::size_t i = 0; i < p.changes.size(); ++i) {
        const auto& ch = p.changes[i];
        out += std::string(i ? "," : "") + "{\"time_s\":" + num(ch.timeS) + ",\"who\":" + json::quote(ch.who)
            + ",\"group\":" + json::quote(ch.group) + ",\"resource\":" + json::quote(ch.resource)
            + ",\"domain\":" + std::to_string(ch.domain) + ",\"old\":" + json::quote(ch.oldValue)
            + ",\"new\":" + json::quote(ch.newValue) + ",\"ok\":" + (ch.ok ? "true" : "false")
            + ",\"message\":" + json::quote(ch.message) + "}";
    }
    return out + "]}";
}

} // namespace

std::string formatJson(const Comparison& c, std::size_t top)
{
    std::string out
        = "{\"format\":\"rdtscope-diff\",\"version\":1,\"normalize\":" + json::quote(normalizeName(c.normalize))
        + ",\n\"a\":" + side(c.a) + ",\n\"b\":" + side(c.b) + ",\n\"mismatches\":[";
    for (std::size_t i = 0; i < c.mismatches.size(); ++i)
        out += std::string(i ? "," : "") + "{\"kind\":" + json::quote(c.mismatches[i].kind)
            + ",\"text\":" + json::quote(c.mismatches[i].text) + "}";
    out += "],\n\"only_in_a\":" + strings(c.onlyInA) + ",\n\"only_in_b\":" + strings(c.onlyInB) + ",\n\"rows\":[";
    const auto rows = topItems(c.rows, top);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        out += std::string(i ? ",\n" : "\n") + "{\"section\":" + json::quote(sectionName(r.section))
            + ",\"item\":" + json::quote(r.item) + ",\"group\":" + json::quote(r.group)
            + ",\"domain\":" + (r.domain >= 0 ? std::to_string(r.domain) : "null")
            + ",\"metric\":" + json::quote(r.metric) + ",\"unit\":" + json::quote(r.unit) + ",\"a\":" + opt(r.a)
            + ",\"b\":" + opt(r.b) + ",\"delta\":" + opt(r.delta()) + ",\"ratio\":" + opt(r.ratio())
            + ",\"count_a\":" + opt(r.countA) + ",\"count_b\":" + opt(r.countB) + ",\"text_a\":" + json::quote(r.textA)
            + ",\"text_b\":" + json::quote(r.textB) + "}";
    }
    return out + "]}\n";
}

} // namespace rdt::compare

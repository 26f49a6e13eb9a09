// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON form of a comparison (layout in CompareFormat.h and the README).
#include "CompareFormat.h"

#include "core/Json.h"

namespace rdt::compare {

namespace {

// Ten significant digits, as the CSV prints them: the two forms carry the same figures.
json::Ordered num(double v)
{
    return json::number(v, 10);
}

json::Ordered opt(const std::optional<double>& v)
{
    return v ? num(*v) : json::Ordered(nullptr);
}

json::Ordered side(const Profile& p)
{
    json::Ordered changes = json::Ordered::array();
    for (const auto& ch : p.changes)
        changes.push_back({ { "time_s", num(ch.timeS) }, { "who", ch.who }, { "group", ch.group },
            { "resource", ch.resource }, { "domain", ch.domain }, { "old", ch.oldValue }, { "new", ch.newValue },
            { "ok", ch.ok }, { "message", ch.message } });
    auto optInt = [](const auto& v) { return v ? json::Ordered(*v) : json::Ordered(nullptr); };
    return { { "path", p.path }, { "kind", p.kind }, { "source", p.source }, { "simulated", p.simulated },
        { "machine", p.machine }, { "family", optInt(p.family) }, { "model", optInt(p.model) },
        { "interval", p.interval }, { "recording_s", num(p.recordingS) },
        { "window", { { "from_s", num(p.fromS) }, { "to_s", num(p.toS) }, { "text", p.windowText } } },
        { "instructions", opt(p.instructions) }, { "notes", p.notes }, { "changes", std::move(changes) } };
}

} // namespace

std::string formatJson(const Comparison& c, std::size_t top)
{
    json::Ordered mismatches = json::Ordered::array();
    for (const auto& m : c.mismatches)
        mismatches.push_back({ { "kind", m.kind }, { "text", m.text } });
    json::Ordered rows = json::Ordered::array();
    for (const auto& r : topItems(c.rows, top))
        rows.push_back({ { "section", sectionName(r.section) }, { "item", r.item }, { "group", r.group },
            { "domain", r.domain >= 0 ? json::Ordered(r.domain) : json::Ordered(nullptr) }, { "metric", r.metric },
            { "unit", r.unit }, { "a", opt(r.a) }, { "b", opt(r.b) }, { "delta", opt(r.delta()) },
            { "ratio", opt(r.ratio()) }, { "count_a", opt(r.countA) }, { "count_b", opt(r.countB) },
            { "text_a", r.textA }, { "text_b", r.textB } });
    const json::Ordered doc
        = { { "format", "rdtscope-diff" }, { "version", 1 }, { "normalize", normalizeName(c.normalize) },
              { "a", side(c.a) }, { "b", side(c.b) }, { "mismatches", std::move(mismatches) },
              { "only_in_a", c.onlyInA }, { "only_in_b", c.onlyInB }, { "rows", std::move(rows) } };
    return json::dumpLined(doc, "rows");
}

} // namespace rdt::compare

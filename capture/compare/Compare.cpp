// SPDX-License-Identifier: GPL-3.0-or-later
#include "Compare.h"
#include "CompareSections.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <future>
#include <map>
#include <set>
#include <tuple>

namespace rdt::compare {

Result<Normalize> parseNormalize(const std::string& text)
{
    if (text == "none") return Normalize::None;
    if (text == "duration") return Normalize::Duration;
    if (text == "instructions") return Normalize::Instructions;
    return makeError("unknown normalisation '" + text + "'", "use --normalize duration or --normalize instructions");
}

const char* normalizeName(Normalize n)
{
    switch (n) {
    case Normalize::None:
        return "none";
    case Normalize::Duration:
        return "duration";
    case Normalize::Instructions:
        return "instructions";
    }
    return "none";
}

const char* sectionName(Section s)
{
    switch (s) {
    case Section::Rdt:
        return "rdt";
    case Section::Allocation:
        return "allocation";
    case Section::Tma:
        return "tma";
    case Section::CallEdge:
        return "lbr-call";
    case Section::HotBranch:
        return "lbr-branch";
    case Section::LatencySource:
        return "latency-source";
    case Section::LatencyRegion:
        return "latency-region";
    case Section::LatencyFunction:
        return "latency-function";
    }
    return "?";
}

std::optional<double> DiffRow::delta() const
{
    if (shareRow()) return b.value_or(0.0) - a.value_or(0.0);
    if (!a || !b) return std::nullopt;
    return *b - *a;
}

std::optional<double> DiffRow::ratio() const
{
    const auto& x = shareRow() ? countA : a;
    const auto& y = shareRow() ? countB : b;
    if (!x || !y || *x == 0) return std::nullopt;
    return *y / *x;
}

double DiffRow::changeScore() const
{
    if (shareRow()) return std::fabs(*delta()); // points: what perf diff sorts by
    if (!a || !b) return 2.0; // above any relative change
    if (!textA.empty() || !textB.empty()) return textA == textB ? 0.0 : 1.0;
    if (scale > 0) return std::fabs(*b - *a) / scale;
    const double m = std::max(std::fabs(*a), std::fabs(*b));
    return m > 0 ? std::fabs(*b - *a) / m : 0.0;
}

namespace {

std::optional<double> opt(bool present, double v)
{
    return present ? std::optional<double>(v) : std::nullopt;
}

void compareRdt(Comparison& c)
{
    std::map<std::pair<std::string, int>, std::pair<const RdtSeries*, const RdtSeries*>> both;
    for (const auto& s : c.a.rdt)
        both[{ s.group, s.domain }].first = &s;
    for (const auto& s : c.b.rdt)
        both[{ s.group, s.domain }].second = &s;
    std::vector<ChangeItem> items;
    std::set<std::string> onlyA, onlyB;
    for (const auto& entry : both) {
        // Plain variables, not structured bindings: the lambdas below capture them (clang before 16 cannot).
        const auto& key = entry.first;
        const auto* x = entry.second.first;
        const auto* y = entry.second.second;
        if (!x) onlyB.insert(key.first);
        if (!y) onlyA.insert(key.first);
        ChangeItem item;
        auto add = [&](const char* metric, const char* unit, SeriesStats RdtSeries::*field, double SeriesStats::*v) {
            DiffRow r;
            r.section = Section::Rdt;
            r.item = r.group = key.first;
            r.domain = key.second;
            r.metric = metric;
            r.unit = unit;
            if (x && (x->*field).count) r.a = (x->*field).*v;
            if (y && (y->*field).count) r.b = (y->*field).*v;
            if (r.a || r.b) item.push_back(std::move(r));
        };
        add("occupancy_mean", "bytes", &RdtSeries::occupancy, &SeriesStats::mean);
        add("occupancy_p95", "bytes", &RdtSeries::occupancy, &SeriesStats::p95);
        add("total_bw_mean", "B/s", &RdtSeries::totalBw, &SeriesStats::mean);
        add("total_bw_p95", "B/s", &RdtSeries::totalBw, &SeriesStats::p95);
        add("local_bw_mean", "B/s", &RdtSeries::localBw, &SeriesStats::mean);
        add("local_bw_p95", "B/s", &RdtSeries::localBw, &SeriesStats::p95);
        if (!item.empty()) items.push_back(std::move(item));
    }
    std::map<std::string, double> largest;
    for (const auto& item : items)
        for (const auto& r : item)
            largest[r.metric] = std::max({ largest[r.metric], std::fabs(r.a.value_or(0)), std::fabs(r.b.value_or(0)) });
    for (auto& item : items)
        for (auto& r : item)
            r.scale = largest[r.metric];
    // A group missing in every domain of one side is a mismatch; a group always present is not.
    for (const auto& g : onlyA)
        if (std::none_of(c.b.rdt.begin(), c.b.rdt.end(), [&](const RdtSeries& s) { return s.group == g; }))
            c.mismatches.push_back({ "group-only-in-a", "group '" + displayGroup(g) + "' is only in A" });
    for (const auto& g : onlyB)
        if (std::none_of(c.a.rdt.begin(), c.a.rdt.end(), [&](const RdtSeries& s) { return s.group == g; }))
            c.mismatches.push_back({ "group-only-in-b", "group '" + displayGroup(g) + "' is only in B" });
    appendItemsByChange(std::move(items), c.rows);
}

bool isCacheResource(const std::string& r)
{
    return r.rfind("L3", 0) == 0 || r.rfind("L2", 0) == 0;
}

std::optional<double> ways(const std::string& mask)
{
    try {
        std::size_t used = 0;
        const unsigned long long v = std::stoull(mask, &used, 16);
        if (used != mask.size()) return std::nullopt;
        return static_cast<double>(std::popcount(v));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void compareAllocation(Comparison& c)
{
    std::map<std::tuple<std::string, std::string, int>, std::pair<const AllocationValue*, const AllocationValue*>> both;
    for (const auto& v : c.a.allocation)
        both[{ v.group, v.resource, v.domain }].first = &v;
    for (const auto& v : c.b.allocation)
        both[{ v.group, v.resource, v.domain }].second = &v;
    std::vector<ChangeItem> items;
    for (const auto& [key, pair] : both) {
        const auto& [group, resource, domain] = key;
        ChangeItem item;
        DiffRow r;
        r.section = Section::Allocation;
        r.item = resource;
        r.group = group;
        r.domain = domain;
        r.textA = pair.first ? pair.first->value : std::string();
        r.textB = pair.second ? pair.second->value : std::string();
        const bool cache = isCacheResource(resource);
        r.metric = cache ? "ways" : "percent";
        r.unit = cache ? "ways" : "%";
        auto numeric = [&](const std::string& text) {
            if (text.empty()) return std::optional<double> {};
            if (cache) return ways(text);
            try {
                return std::optional<double>(std::stod(text));
            } catch (const std::exception&) {
                return std::optional<double> {};
            }
        };
        r.a = numeric(r.textA);
        r.b = numeric(r.textB);
        item.push_back(r);
        if (cache && resource.rfind("L3", 0) == 0 && (c.a.bytesPerWay || c.b.bytesPerWay)) {
            DiffRow mb = r;
            mb.metric = "mib";
            mb.unit = "MiB";
            mb.a = r.a && c.a.bytesPerWay ? opt(true, *r.a * static_cast<double>(c.a.bytesPerWay) / 1048576.0)
                                          : std::nullopt;
            mb.b = r.b && c.b.bytesPerWay ? opt(true, *r.b * static_cast<double>(c.b.bytesPerWay) / 1048576.0)
                                          : std::nullopt;
            mb.textA = mb.textB = {};
            item.push_back(std::move(mb));
        }
        items.push_back(std::move(item));
    }
    appendItemsByChange(std::move(items), c.rows);
}

void compareTma(Comparison& c)
{
    std::map<std::pair<int, std::string>, std::pair<std::optional<double>, std::optional<double>>> both;
    for (const auto& t : c.a.tma)
        both[{ t.level, t.metric }].first = t.fraction * 100.0;
    for (const auto& t : c.b.tma)
        both[{ t.level, t.metric }].second = t.fraction * 100.0;
    std::vector<ChangeItem> items;
    for (const auto& [key, v] : both) {
        DiffRow r;
        r.section = Section::Tma;
        r.item = key.second;
        r.metric = "level" + std::to_string(key.first);
        r.unit = "points";
        r.a = v.first;
        r.b = v.second;
        items.push_back({ std::move(r) });
    }
    appendItemsByChange(std::move(items), c.rows);
}

} // namespace

void appendItemsByChange(std::vector<ChangeItem> items, std::vector<DiffRow>& out)
{
    auto score = [](const ChangeItem& item) {
        double s = 0;
        for (const auto& r : item)
            s = std::max(s, r.changeScore());
        return s;
    };
    // Stable: items of equal change keep their name order.
    std::stable_sort(
        items.begin(), items.end(), [&](const ChangeItem& x, const ChangeItem& y) { return score(x) > score(y); });
    for (auto& item : items)
        for (auto& r : item)
            out.push_back(std::move(r));
}

Comparison compareProfiles(Profile a, Profile b, const CompareOptions& options)
{
    Comparison c;
    c.a = std::move(a);
    c.b = std::move(b);
    checkMismatches(c, options);
    compareRdt(c);
    compareAllocation(c);
    compareTma(c);
    compareCounts(c);
    return c;
}

Result<Comparison> compareFiles(const CompareRequest& request)
{
    // The two files are read at once (each reader has its own SQLite connection or mapping): on two cores an hour
    // against an hour takes the time of one.
    auto futureB = std::async(std::launch::async, [&] { return loadProfile(request.pathB, request.loadB); });
    auto a = loadProfile(request.pathA, request.loadA);
    auto b = futureB.get();
    auto side = [](const char* name, Error e) {
        e.message = std::string(name) + ": " + e.message;
        return e;
    };
    if (!a) return side("A", a.error());
    if (!b) return side("B", b.error());
    return compareProfiles(std::move(a).value(), std::move(b).value(), request.options);
}

} // namespace rdt::compare

// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareSections.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace rdt::compare {

namespace {

/// What one count of side `p` becomes after normalisation: per second of window, per 1000 instructions, or 1.
double countScale(const Profile& p, Normalize n)
{
    switch (n) {
    case Normalize::Duration:
        return p.durationS() > 0 ? 1.0 / p.durationS() : 1.0;
    case Normalize::Instructions:
        return p.instructions && *p.instructions > 0 ? 1000.0 / *p.instructions : 1.0;
    case Normalize::None:
        break;
    }
    return 1.0;
}

void compareEdges(Comparison& c, double scaleA, double scaleB)
{
    struct Pair {
        std::uint64_t a = 0, b = 0;
        bool inA = false, inB = false;
    };
    // kind first, so calls and branches between the same two functions stay apart.
    std::map<std::tuple<std::string, std::string, std::string>, Pair> both;
    double totalA = 0, totalB = 0;
    for (const auto& e : c.a.edges) {
        auto& p = both[{ e.kind, e.from, e.to }];
        p.a += e.count;
        p.inA = true;
        totalA += static_cast<double>(e.count);
    }
    for (const auto& e : c.b.edges) {
        auto& p = both[{ e.kind, e.from, e.to }];
        p.b += e.count;
        p.inB = true;
        totalB += static_cast<double>(e.count);
    }
    std::vector<ChangeItem> calls, branches;
    for (const auto& [key, p] : both) {
        const auto& [kind, from, to] = key;
        DiffRow r;
        r.section = kind == "branch" ? Section::HotBranch : Section::CallEdge;
        r.item = kind == "branch" ? from : from + " -> " + to;
        if (kind != "branch" && kind != "call") r.item += " (" + kind + ")"; // return, jump, trap, unknown
        r.metric = "share";
        r.unit = "%";
        if (p.inA) {
            r.a = totalA > 0 ? 100.0 * static_cast<double>(p.a) / totalA : 0.0;
            r.countA = static_cast<double>(p.a) * scaleA;
        }
        if (p.inB) {
            r.b = totalB > 0 ? 100.0 * static_cast<double>(p.b) / totalB : 0.0;
            r.countB = static_cast<double>(p.b) * scaleB;
        }
        (kind == "branch" ? branches : calls).push_back({ std::move(r) });
    }
    appendItemsByChange(std::move(calls), c.rows);
    appendItemsByChange(std::move(branches), c.rows);
}

void compareLatency(Comparison& c, Section section, const std::vector<LatencyFigures>& a,
    const std::vector<LatencyFigures>& b, double scaleA, double scaleB)
{
    std::map<std::pair<std::string, std::string>, std::pair<const LatencyFigures*, const LatencyFigures*>> both;
    double totalA = 0, totalB = 0;
    for (const auto& f : a) {
        both[{ f.key, f.module }].first = &f;
        totalA += static_cast<double>(f.count);
    }
    for (const auto& f : b) {
        both[{ f.key, f.module }].second = &f;
        totalB += static_cast<double>(f.count);
    }
    std::vector<ChangeItem> items;
    for (const auto& [key, p] : both) {
        const auto [x, y] = p;
        ChangeItem item;
        DiffRow share;
        share.section = section;
        share.item = key.first;
        share.metric = "share";
        share.unit = "%";
        if (x) {
            share.a = totalA > 0 ? 100.0 * static_cast<double>(x->count) / totalA : 0.0;
            share.countA = static_cast<double>(x->count) * scaleA;
        }
        if (y) {
            share.b = totalB > 0 ? 100.0 * static_cast<double>(y->count) / totalB : 0.0;
            share.countB = static_cast<double>(y->count) * scaleB;
        }
        item.push_back(share);
        for (const auto& [metric, field] :
            { std::pair { "mean", &LatencyFigures::mean }, { "p99", &LatencyFigures::p99 } }) {
            DiffRow r;
            r.section = section;
            r.item = key.first;
            r.metric = metric;
            r.unit = "cycles";
            if (x) r.a = x->*field;
            if (y) r.b = y->*field;
            item.push_back(std::move(r));
        }
        items.push_back(std::move(item));
    }
    appendItemsByChange(std::move(items), c.rows);
}

/// Function names seen on one side only (LBR edges and latency functions), for "mismatched symbols".
void listSymbols(Comparison& c)
{
    auto functions = [](const Profile& p) {
        std::set<std::string> f;
        for (const auto& e : p.edges) {
            f.insert(e.from);
            f.insert(e.to);
        }
        for (const auto& l : p.latencyByFunction)
            f.insert(l.key);
        return f;
    };
    const auto fa = functions(c.a), fb = functions(c.b);
    std::set_difference(fa.begin(), fa.end(), fb.begin(), fb.end(), std::back_inserter(c.onlyInA));
    std::set_difference(fb.begin(), fb.end(), fa.begin(), fa.end(), std::back_inserter(c.onlyInB));
    if ((c.a.hasLbr || c.a.hasMem) && (c.b.hasLbr || c.b.hasMem) && (!c.onlyInA.empty() || !c.onlyInB.empty()))
        c.mismatches.push_back({ "symbols",
            std::to_string(c.onlyInA.size()) + " functions only in A, " + std::to_string(c.onlyInB.size())
                + " only in B (listed below)" });
}

std::string family(const Profile& p)
{
    char buf[48];
    std::snprintf(
        buf, sizeof buf, "family %u model %u (0x%X)", p.family.value_or(0), p.model.value_or(0), p.model.value_or(0));
    return buf;
}

} // namespace

void compareCounts(Comparison& c)
{
    const double scaleA = countScale(c.a, c.normalize), scaleB = countScale(c.b, c.normalize);
    if (c.a.hasLbr || c.b.hasLbr) compareEdges(c, scaleA, scaleB);
    if (c.a.hasMem || c.b.hasMem) {
        compareLatency(c, Section::LatencySource, c.a.latencyBySource, c.b.latencyBySource, scaleA, scaleB);
        compareLatency(c, Section::LatencyRegion, c.a.latencyByRegion, c.b.latencyByRegion, scaleA, scaleB);
        compareLatency(c, Section::LatencyFunction, c.a.latencyByFunction, c.b.latencyByFunction, scaleA, scaleB);
    }
    listSymbols(c);
}

void checkMismatches(Comparison& c, const CompareOptions& options)
{
    const Profile &a = c.a, &b = c.b;
    // A session holding an imported perf.data has the file's PMU figures: only a session without them differs.
    const Profile& session = a.kind == "session" ? a : b;
    if (a.kind != b.kind && !session.hasLbr && !session.hasMem)
        c.mismatches.push_back({ "kind",
            "A is a " + a.kind + " file and B a " + b.kind
                + " file: only what both hold is compared (RDT comes from sessions, branches and loads from "
                  "perf.data)" });
    if (a.family && b.family && (*a.family != *b.family || *a.model != *b.model))
        c.mismatches.push_back({ "machine",
            "different CPUs: A is " + family(a) + ", B is " + family(b) + ": " + a.machine + " vs " + b.machine });
    else if (a.family.has_value() != b.family.has_value())
        c.mismatches.push_back({ "machine",
            std::string("the CPU of ") + (a.family ? "B" : "A")
                + " is not recorded, so the machines cannot be checked to be the same" });
    if (a.simulated != b.simulated)
        c.mismatches.push_back({ "simulated",
            std::string(a.simulated ? "A" : "B") + " is SIMULATED data and the other was measured on hardware" });
    if (!a.interval.empty() && !b.interval.empty() && a.interval != b.interval)
        c.mismatches.push_back({ "interval", "different sampling intervals: A " + a.interval + ", B " + b.interval });
    c.normalize = options.normalize;
    if (options.normalize == Normalize::Instructions && (!a.instructions || !b.instructions)) {
        c.normalize = Normalize::None;
        c.mismatches.push_back({ "normalize",
            std::string("cannot normalise by instructions: ") + (!a.instructions ? "A" : "B")
                + " counts no instructions (record an `instructions` event with the samples); counts are raw" });
    }
    const double da = a.durationS(), db = b.durationS();
    const bool counts = a.hasLbr || a.hasMem || b.hasLbr || b.hasMem;
    if (counts && c.normalize == Normalize::None && da > 0 && db > 0 && std::fabs(da - db) > 0.1 * std::max(da, db)) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
            "the windows differ in length (%.3f s vs %.3f s): counts are not comparable, shares are "
            "(--normalize duration)",
            da, db);
        c.mismatches.push_back({ "window", buf });
    }
}

} // namespace rdt::compare

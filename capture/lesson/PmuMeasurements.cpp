// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuMeasurements.h"

#include "core/Text.h"

#include <algorithm>
#include <array>
#include <map>

namespace rdt::lesson {

namespace {

constexpr std::array kPmuFunctions { "tma", "innerbranches", "calls", "mispredicts", "branchshare", "loads", "latency",
    "loadsamples", "hitm" };

double percent(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

} // namespace

pmu::TmaBreakdown tmaSince(const pmu::TmaBreakdown& now, const pmu::TmaBreakdown& before)
{
    if (!before.valid || before.slots <= 0) return now;
    pmu::TmaBreakdown out = now;
    const double slots = now.slots - before.slots;
    if (!now.valid || slots <= 0) {
        out.valid = false;
        out.note = "no slots were counted during the step's run";
        return out;
    }
    out.slots = slots;
    // Each fraction of the run alone: the slots it had at the end minus those at the start, over the run's slots.
    const auto o = tmaFractions(out);
    const auto n = tmaFractions(now);
    const auto b = tmaFractions(before);
    for (std::size_t k = 0; k < o.size(); ++k)
        *o[k] = (*n[k] * now.slots - *b[k] * before.slots) / slots;
    return out;
}

namespace {

std::optional<double> tmaValue(const engine::PmuReport& r, const std::string& category, std::string& why)
{
    if (r.tmaTotals.empty() || !r.tmaTotals.front().valid) {
        why = "the step's PMU capture counted no TMA (start `pmu tma`)";
        return std::nullopt;
    }
    const auto& t = r.tmaTotals.front();
    const auto& l1 = t.level1;
    const auto& l2 = t.level2;
    const std::array<std::pair<const char*, double>, 4> level1 { { { "retiring", l1.retiring },
        { "badspec", l1.badSpeculation }, { "frontend", l1.frontendBound }, { "backend", l1.backendBound } } };
    for (const auto& [name, value] : level1)
        if (category == name) return 100.0 * value;
    const std::array<std::pair<const char*, double>, 8> level2 { { { "heavy", l2.heavyOperations },
        { "light", l2.lightOperations }, { "branchmispredicts", l2.branchMispredicts },
        { "machineclears", l2.machineClears }, { "fetchlatency", l2.fetchLatency },
        { "fetchbandwidth", l2.fetchBandwidth }, { "memory", l2.memoryBound }, { "core", l2.coreBound } } };
    for (const auto& [name, value] : level2) {
        if (category != name) continue;
        if (!l2.present) {
            why = "this PMU model has no TMA level 2";
            return std::nullopt;
        }
        return 100.0 * value;
    }
    why = "tma(" + category
        + "): categories are retiring badspec frontend backend (level 1) and heavy light branchmispredicts "
          "machineclears fetchlatency fetchbandwidth memory core (level 2)";
    return std::nullopt;
}

/// Branch entries inside `fn` ("" = inside any function), and how many of them were mispredicted.
std::pair<double, double> innerBranches(const pmu::BranchGraphReport& g, const std::string& fn)
{
    double count = 0, mispredicted = 0;
    for (const auto& e : g.edges) {
        if (e.call() || e.ret() || (!fn.empty() && e.from != fn)) continue;
        count += double(e.stats.count);
        mispredicted += double(e.stats.mispredicts);
    }
    return { count, mispredicted };
}

std::optional<pmu::MemLevel> levelNamed(const std::string& name)
{
    static const std::array<std::pair<const char*, pmu::MemLevel>, 6> levels { { { "l1", pmu::MemLevel::L1 },
        { "lfb", pmu::MemLevel::Lfb }, { "l2", pmu::MemLevel::L2 }, { "l3", pmu::MemLevel::L3 },
        { "dram", pmu::MemLevel::LocalDram }, { "remote", pmu::MemLevel::RemoteDram } } };
    for (const auto& [n, level] : levels)
        if (name == n) return level;
    return std::nullopt;
}

} // namespace

bool isPmuFunction(const std::string& function)
{
    return std::find(kPmuFunctions.begin(), kPmuFunctions.end(), function) != kPmuFunctions.end();
}

std::optional<double> pmuMetric(
    const engine::PmuReport& r, const std::string& function, const std::vector<std::string>& args, std::string& why)
{
    auto arg = [&](std::size_t i) { return i < args.size() ? args[i] : std::string(); };
    if (function == "tma") return tmaValue(r, arg(0), why);
    if (function == "innerbranches" || function == "calls" || function == "mispredicts" || function == "branchshare") {
        if (!r.branches || r.branches->samples == 0) {
            why = "the step's PMU capture recorded no LBR samples (start `pmu lbr` or `pmu lbr-callstack`)";
            return std::nullopt;
        }
        const auto& g = *r.branches;
        if (function == "innerbranches") return innerBranches(g, "").first;
        if (function == "calls") {
            double n = 0;
            for (const auto& e : g.edges)
                if (e.call() && e.from == arg(0) && e.to == arg(1)) n += double(e.stats.count);
            return n;
        }
        const auto [inside, mispredicted] = innerBranches(g, arg(0));
        if (function == "branchshare") return percent(inside, innerBranches(g, "").first);
        if (inside == 0) {
            why = "no sampled branch inside '" + arg(0) + "'";
            return std::nullopt;
        }
        return percent(mispredicted, inside);
    }
    // Load latency.
    if (!r.loads || r.loads->total.count == 0) {
        why = "the step's PMU capture recorded no load samples (start `pmu mem`)";
        return std::nullopt;
    }
    const auto& total = r.loads->total;
    if (function == "loadsamples") return double(total.count);
    if (function == "loads") {
        if (arg(0) == "hitm") return percent(double(total.hitm), double(total.count));
        const auto level = levelNamed(arg(0));
        if (!level) {
            why = "loads(" + arg(0) + "): sources are l1 lfb l2 l3 dram remote hitm";
            return std::nullopt;
        }
        return percent(double(total.byLevel[static_cast<std::size_t>(*level)]), double(total.count));
    }
    const pmu::LatencyStats* stats = &total;
    if (!arg(0).empty()) {
        const auto& fns = r.loads->functions;
        auto it = std::find_if(fns.begin(), fns.end(), [&](const pmu::LatencyRow& row) { return row.key == arg(0); });
        if (it == fns.end() || it->stats.count == 0) {
            why = "no load sample in '" + arg(0) + "'";
            return std::nullopt;
        }
        stats = &it->stats;
    }
    if (function == "latency") return stats->mean();
    if (function == "hitm") return percent(double(stats->hitm), double(stats->count));
    why = "unknown function " + function;
    return std::nullopt;
}

std::vector<std::string> describePmuReport(const engine::PmuReport& r)
{
    std::vector<std::string> out;
    if (!r.tmaTotals.empty() && r.tmaTotals.front().valid) {
        const auto& t = r.tmaTotals.front();
        out.push_back(formatString("TMA level 1: retiring %.1f %%, bad speculation %.1f %%, frontend bound %.1f %%, "
                                   "backend bound %.1f %%",
            100 * t.level1.retiring, 100 * t.level1.badSpeculation, 100 * t.level1.frontendBound,
            100 * t.level1.backendBound));
        if (t.level2.present)
            out.push_back(formatString("TMA level 2: heavy %.1f %%, light %.1f %%, branch mispredicts %.1f %%, machine "
                                       "clears %.1f %%, fetch latency %.1f %%, fetch bandwidth %.1f %%, memory bound "
                                       "%.1f %%, core bound %.1f %%",
                100 * t.level2.heavyOperations, 100 * t.level2.lightOperations, 100 * t.level2.branchMispredicts,
                100 * t.level2.machineClears, 100 * t.level2.fetchLatency, 100 * t.level2.fetchBandwidth,
                100 * t.level2.memoryBound, 100 * t.level2.coreBound));
    }
    if (r.branches && r.branches->samples > 0) {
        const auto& g = *r.branches;
        out.push_back(formatString("LBR: %llu samples, %llu branch entries", static_cast<unsigned long long>(g.samples),
            static_cast<unsigned long long>(g.branches)));
        std::string calls = "calls (samples):";
        std::size_t shown = 0;
        for (const auto& e : g.edges) { // by count, descending
            if (!e.call() || shown == 6) continue;
            calls += formatString(
                " %s -> %s %llu;", e.from.c_str(), e.to.c_str(), static_cast<unsigned long long>(e.stats.count));
            ++shown;
        }
        if (shown) out.push_back(calls);
        std::map<std::string, std::pair<double, double>> loops;
        double all = 0;
        for (const auto& e : g.edges) {
            if (e.call() || e.ret()) continue;
            loops[e.from].first += double(e.stats.count);
            loops[e.from].second += double(e.stats.mispredicts);
            all += double(e.stats.count);
        }
        std::vector<std::pair<std::string, std::pair<double, double>>> sorted(loops.begin(), loops.end());
        std::sort(
            sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
        std::string inner = "branches inside functions (share, mispredicted):";
        for (std::size_t i = 0; i < sorted.size() && i < 8; ++i)
            inner += formatString(" %s %.1f %% (%.1f %%);", sorted[i].first.c_str(),
                percent(sorted[i].second.first, all), percent(sorted[i].second.second, sorted[i].second.first));
        if (!sorted.empty()) out.push_back(inner);
    }
    if (r.loads && r.loads->total.count > 0) {
        const auto& total = r.loads->total;
        const double n = double(total.count);
        auto level = [&](pmu::MemLevel l) { return percent(double(total.byLevel[static_cast<std::size_t>(l)]), n); };
        out.push_back(formatString("loads: %llu samples, mean latency %.0f cycles; sources: L1 %.1f %%, LFB %.1f %%, "
                                   "L2 %.1f %%, L3 %.1f %%, DRAM %.1f %%, remote DRAM %.1f %%, HITM %.1f %%",
            static_cast<unsigned long long>(total.count), total.mean(), level(pmu::MemLevel::L1),
            level(pmu::MemLevel::Lfb), level(pmu::MemLevel::L2), level(pmu::MemLevel::L3),
            level(pmu::MemLevel::LocalDram), level(pmu::MemLevel::RemoteDram), percent(double(total.hitm), n)));
        std::string fns = "by function (samples, mean latency, HITM):";
        for (std::size_t i = 0; i < r.loads->functions.size() && i < 6; ++i) {
            const auto& f = r.loads->functions[i];
            fns += formatString(" %s %llu, %.0f cycles, %.0f %%;", f.key.c_str(),
                static_cast<unsigned long long>(f.stats.count), f.stats.mean(),
                percent(double(f.stats.hitm), double(f.stats.count)));
        }
        out.push_back(fns);
    }
    return out;
}

} // namespace rdt::lesson

// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuText.h"

#include "core/Text.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace rdt::pmu {

namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...)
{
    va_list ap;
    va_start(ap, f);
    std::string out = formatStringV(f, ap); // any length: a long demangled name is never cut by a buffer
    va_end(ap);
    return out;
}

std::string clip(const std::string& s, std::size_t n)
{
    return s.size() <= n ? s : s.substr(0, n - 1) + "~";
}

double pct(double v)
{
    return 100.0 * v;
}

constexpr MemLevel kShownLevels[] = { MemLevel::L1, MemLevel::Lfb, MemLevel::L2, MemLevel::L3, MemLevel::LocalDram,
    MemLevel::RemoteDram, MemLevel::RemoteCache, MemLevel::Unknown };

} // namespace

std::string tmaHeader(bool level2)
{
    std::string h = "  interval  retiring  bad-spec  fe-bound  be-bound";
    if (level2) h += " | heavy  light  br-misp  m-clears  fetch-lat  fetch-bw  mem-bound  core-bound";
    return h + "  mux\n";
}

std::string tmaRow(double seconds, const TmaBreakdown& b)
{
    return tmaRow(fmt("%6.2f s", seconds), b);
}

std::string tmaRow(const std::string& label, const TmaBreakdown& b)
{
    if (!b.valid) return fmt("  %8s  (no data: %s)\n", label.c_str(), b.note.c_str());
    std::string r = fmt("  %8s  %7.1f%%  %7.1f%%  %7.1f%%  %7.1f%%", label.c_str(), pct(b.level1.retiring),
        pct(b.level1.badSpeculation), pct(b.level1.frontendBound), pct(b.level1.backendBound));
    if (b.level2.present) {
        const auto& l = b.level2;
        r += fmt(" | %4.1f%%  %4.1f%%  %6.1f%%  %7.1f%%  %8.1f%%  %7.1f%%  %8.1f%%  %9.1f%%", pct(l.heavyOperations),
            pct(l.lightOperations), pct(l.branchMispredicts), pct(l.machineClears), pct(l.fetchLatency),
            pct(l.fetchBandwidth), pct(l.memoryBound), pct(l.coreBound));
    }
    r += fmt("  x%.2f", b.multiplexScale);
    if (!b.note.empty()) r += "  (" + b.note + ")";
    return r + "\n";
}

std::string branchGraphText(const BranchGraphReport& r, bool anyBranchMode, std::size_t topN)
{
    std::string out = fmt("%llu samples, %llu branch records%s\n", static_cast<unsigned long long>(r.samples),
        static_cast<unsigned long long>(r.branches),
        r.emptyStacks ? fmt(", %llu without user branches", static_cast<unsigned long long>(r.emptyStacks)).c_str()
                      : "");
    std::uint64_t callTotal = 0;
    for (const auto& e : r.edges)
        callTotal += e.call() ? e.stats.count : 0;
    out += "\nhottest call edges\n     count   share  mispred  avg-cyc  caller -> callee\n";
    std::size_t shown = 0;
    for (const auto& e : r.edges) {
        if (!e.call() || shown >= topN) continue;
        ++shown;
        const double share
            = callTotal ? 100.0 * static_cast<double>(e.stats.count) / static_cast<double>(callTotal) : 0;
        if (anyBranchMode)
            out += fmt("  %8llu  %5.1f%%  %6.1f%%  %7.1f  %s -> %s\n", static_cast<unsigned long long>(e.stats.count),
                share, 100.0 * e.stats.mispredictRate(), e.stats.averageCycles(), clip(e.from, 40).c_str(),
                clip(e.to, 40).c_str());
        else // call-stack mode records no flags or cycles (NO_FLAGS|NO_CYCLES)
            out += fmt("  %8llu  %5.1f%%      n/a      n/a  %s -> %s\n", static_cast<unsigned long long>(e.stats.count),
                share, clip(e.from, 40).c_str(), clip(e.to, 40).c_str());
    }
    if (shown == 0) out += "  (none)\n";
    if (anyBranchMode) {
        out += "\nhottest branches inside functions\n     count  mispred  avg-cyc  function\n";
        shown = 0;
        for (const auto& e : r.edges) {
            if (e.call() || e.ret() || e.from != e.to || shown >= std::min<std::size_t>(topN, 8)) continue;
            ++shown;
            out += fmt("  %8llu  %6.1f%%  %7.1f  %s\n", static_cast<unsigned long long>(e.stats.count),
                100.0 * e.stats.mispredictRate(), e.stats.averageCycles(), clip(e.from, 50).c_str());
        }
    }
    out += "\nfunctions\n      self  inclusive  function (module)\n";
    shown = 0;
    for (const auto& f : r.functions) {
        if (shown++ >= topN) break;
        out += fmt("  %8llu  %9llu  %s (%s)\n", static_cast<unsigned long long>(f.self),
            static_cast<unsigned long long>(f.inclusive), clip(f.name, 50).c_str(), f.module.c_str());
    }
    return out;
}

std::string loadLatencyText(const LoadLatencyReport& r, std::size_t topN)
{
    std::string out = fmt("%llu load samples, mean %.1f cycles, p50 %u, p99 %u\n\nlatency histogram (cycles)\n",
        static_cast<unsigned long long>(r.total.count), r.total.mean(), r.total.percentile(0.5),
        r.total.percentile(0.99));
    out += "     range        ";
    for (MemLevel l : kShownLevels)
        out += fmt("%13s", std::string(memLevelName(l)).c_str());
    out += "\n";
    std::size_t first = LoadLatencyReport::kBuckets, last = 0;
    for (std::size_t b = 0; b < LoadLatencyReport::kBuckets; ++b) {
        std::uint64_t n = 0;
        for (auto v : r.histogram[b])
            n += v;
        if (n) {
            first = std::min(first, b);
            last = b;
        }
    }
    for (std::size_t b = first; b <= last && first < LoadLatencyReport::kBuckets; ++b) {
        out += fmt("  [%6llu,%6llu)", static_cast<unsigned long long>(b ? 1ull << b : 0),
            static_cast<unsigned long long>(1ull << (b + 1)));
        for (MemLevel l : kShownLevels)
            out += fmt("%13llu", static_cast<unsigned long long>(r.histogram[b][static_cast<std::size_t>(l)]));
        out += "\n";
    }
    auto table = [&](const char* title, const std::vector<LatencyRow>& rows, bool lines) {
        out += fmt("\n%s\n     count     mean   p50   p99   hitm  remote  level        %s\n", title,
            lines ? "line (hottest function)" : "function (module)");
        std::size_t shown = 0;
        for (const auto& row : rows) {
            if (shown++ >= topN) break;
            const auto& s = row.stats;
            out += fmt("  %8llu  %7.1f  %4u  %4u  %5llu  %6llu  %-11s  %s (%s)\n",
                static_cast<unsigned long long>(s.count), s.mean(), s.percentile(0.5), s.percentile(0.99),
                static_cast<unsigned long long>(s.hitm), static_cast<unsigned long long>(s.remote),
                std::string(memLevelName(s.dominantLevel())).c_str(), clip(row.key, 40).c_str(),
                lines ? clip(row.function, 40).c_str() : row.module.c_str());
        }
    };
    table("top functions by total latency", r.functions, false);
    table("top 64-byte lines by total latency", r.lines, true);
    return out;
}

} // namespace rdt::pmu

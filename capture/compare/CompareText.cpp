// SPDX-License-Identifier: GPL-3.0-or-later
// The readable form of a comparison: a header per side, mismatches, then one block per section, items in the
// engine's order (largest change first).
#include "CompareFormat.h"
#include "core/Text.h"
#include "rdt/GroupNames.h"

#include <cstdarg>
#include <cstdio>
#include <map>

namespace rdt::compare {

namespace {

void appendf(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out += formatStringV(fmt, ap); // any length, no fixed buffer
    va_end(ap);
}

std::string sideLine(const char* name, const Profile& p)
{
    std::string t;
    appendf(t, "%s: %s  (%s%s%s)\n", name, p.path.c_str(), p.kind.c_str(), p.source != p.kind ? ", " : "",
        p.source != p.kind ? p.source.c_str() : "");
    if (p.simulated) t += "   SIMULATED data, not measured on hardware\n";
    if (!p.machine.empty()) appendf(t, "   machine: %s\n", p.machine.c_str());
    appendf(t, "   window:  %.3f .. %.3f s (%.3f s of %.3f s; %s)%s%s\n", p.fromS, p.toS, p.durationS(), p.recordingS,
        p.windowText.c_str(), p.interval.empty() ? "" : ", sampling ", p.interval.c_str());
    return t;
}

/// Consecutive rows of one item.
std::vector<std::vector<const DiffRow*>> items(const std::vector<DiffRow>& rows, Section section)
{
    std::vector<std::vector<const DiffRow*>> out;
    for (const auto& r : rows) {
        if (r.section != section) continue;
        if (out.empty() || out.back().front()->item != r.item || out.back().front()->group != r.group
            || out.back().front()->domain != r.domain)
            out.emplace_back();
        out.back().push_back(&r);
    }
    return out;
}

const DiffRow* metric(const std::vector<const DiffRow*>& item, const std::string& name)
{
    for (const auto* r : item)
        if (r->metric == name) return r;
    return nullptr;
}

std::string value(const std::optional<double>& v, const std::string& unit)
{
    return v ? formatValue(*v, unit) : "-";
}

void rdtBlock(std::string& out, const std::vector<DiffRow>& rows)
{
    const auto list = items(rows, Section::Rdt);
    if (list.empty()) return;
    out += "\nRDT per group and domain (largest change first)\n";
    appendf(out, "%-16s %3s  %-10s %12s %12s %8s   %12s %12s %8s\n", "group", "dom", "quantity", "mean A", "mean B",
        "ratio", "p95 A", "p95 B", "ratio");
    for (const auto& item : list) {
        bool first = true;
        for (const auto& [label, prefix] :
            { std::pair { "occupancy", "occupancy" }, { "total bw", "total_bw" }, { "local bw", "local_bw" } }) {
            const DiffRow* mean = metric(item, std::string(prefix) + "_mean");
            const DiffRow* p95 = metric(item, std::string(prefix) + "_p95");
            if (!mean && !p95) continue;
            const DiffRow& any = mean ? *mean : *p95;
            appendf(out, "%-16s %3d  %-10s %12s %12s %8s   %12s %12s %8s\n",
                first ? displayGroup(any.group).substr(0, 16).c_str() : "", any.domain, label,
                value(mean ? mean->a : std::nullopt, any.unit).c_str(),
                value(mean ? mean->b : std::nullopt, any.unit).c_str(), mean ? formatRatio(mean->ratio()).c_str() : "-",
                value(p95 ? p95->a : std::nullopt, any.unit).c_str(),
                value(p95 ? p95->b : std::nullopt, any.unit).c_str(), p95 ? formatRatio(p95->ratio()).c_str() : "-");
            first = false;
        }
    }
}

void allocationBlock(std::string& out, const Comparison& c, const std::vector<DiffRow>& rows)
{
    const auto list = items(rows, Section::Allocation);
    if (!list.empty()) {
        out += "\nAllocation at the end of each window (* changed)\n";
        appendf(out, "  %-16s %-8s %3s  %-28s %s\n", "group", "resource", "dom", "A", "B");
        for (const auto& item : list) {
            const DiffRow& r = *item.front();
            auto text = [&](const std::string& t, const std::optional<double>& n, const DiffRow* mib, bool a) {
                if (t.empty()) return std::string("-");
                std::string s = t;
                if (n && r.unit == "ways") {
                    char buf[64];
                    std::snprintf(buf, sizeof buf, " (%.0f ways", *n);
                    s += buf;
                    const auto& m = mib ? (a ? mib->a : mib->b) : std::nullopt;
                    if (m) s += ", " + formatValue(*m, "MiB");
                    s += ")";
                }
                return s;
            };
            const DiffRow* mib = metric(item, "mib");
            appendf(out, "%c %-16s %-8s %3d  %-28s %s\n", r.textA != r.textB ? '*' : ' ',
                displayGroup(r.group).substr(0, 16).c_str(), r.item.c_str(), r.domain,
                text(r.textA, r.a, mib, true).c_str(), text(r.textB, r.b, mib, false).c_str());
        }
    }
    if (c.a.changes.empty() && c.b.changes.empty()) return;
    out += "\nAllocation changes inside the windows\n";
    for (const auto& [name, p] : { std::pair { "A", &c.a }, { "B", &c.b } }) {
        if (p->changes.empty()) appendf(out, "  %s  none\n", name);
        for (const auto& ch : p->changes)
            appendf(out, "  %s  %9.3f s  %-9s %-16s %s:%d %s -> %s%s%s\n", name, ch.timeS, ch.who.c_str(),
                displayGroup(ch.group).c_str(), ch.resource.c_str(), ch.domain, ch.oldValue.c_str(),
                ch.newValue.c_str(), ch.ok ? "" : "  REJECTED: ", ch.ok ? "" : ch.message.c_str());
    }
}

void tmaBlock(std::string& out, const std::vector<DiffRow>& rows)
{
    const auto list = items(rows, Section::Tma);
    if (list.empty()) return;
    out += "\nTMA (% of slots, largest change first)\n";
    appendf(out, "  %-7s %-28s %9s %9s %10s\n", "level", "category", "A", "B", "delta");
    for (const auto& item : list) {
        const DiffRow& r = *item.front();
        const auto d = r.delta();
        appendf(out, "  %-7s %-28s %9s %9s %10s\n", r.metric.c_str(), r.item.c_str(), value(r.a, "%").c_str(),
            value(r.b, "%").c_str(), d ? formatDelta(*d, "points").c_str() : "-");
    }
}

std::string countText(const std::optional<double>& v)
{
    if (!v) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, *v >= 100 || *v == 0 ? "%.0f" : "%.3g", *v);
    return buf;
}

void shareBlock(std::string& out, const std::vector<DiffRow>& rows, Section section, const char* title,
    const char* what, bool latency)
{
    const auto list = items(rows, section);
    if (list.empty()) return;
    appendf(out, "\n%s\n", title);
    appendf(out, "%8s %8s %10s %8s %10s %10s", "share A", "share B", "delta", "ratio", "count A", "count B");
    if (latency) appendf(out, " %8s %8s %8s %8s", "mean A", "mean B", "p99 A", "p99 B");
    appendf(out, "  %s\n", what);
    for (const auto& item : list) {
        const DiffRow* s = metric(item, "share");
        if (!s) continue;
        appendf(out, "%8s %8s %10s %8s %10s %10s", value(s->a, "%").c_str(), value(s->b, "%").c_str(),
            formatDelta(*s->delta(), "%").c_str(), formatRatio(s->ratio()).c_str(), countText(s->countA).c_str(),
            countText(s->countB).c_str());
        if (latency) {
            const DiffRow* mean = metric(item, "mean");
            const DiffRow* p99 = metric(item, "p99");
            appendf(out, " %8s %8s %8s %8s", value(mean ? mean->a : std::nullopt, "cycles").c_str(),
                value(mean ? mean->b : std::nullopt, "cycles").c_str(),
                value(p99 ? p99->a : std::nullopt, "cycles").c_str(),
                value(p99 ? p99->b : std::nullopt, "cycles").c_str());
        }
        appendf(out, "  %s%s\n", s->item.c_str(), !s->a ? "  [only in B]" : (!s->b ? "  [only in A]" : ""));
    }
}

void symbolsBlock(std::string& out, const Comparison& c, std::size_t top)
{
    for (const auto& [name, list] : { std::pair { "A", &c.onlyInA }, { "B", &c.onlyInB } }) {
        if (list->empty()) continue;
        appendf(out, "\nFunctions only in %s (%zu)\n", name, list->size());
        for (std::size_t i = 0; i < list->size() && (top == 0 || i < top); ++i)
            appendf(out, "  %s\n", (*list)[i].c_str());
        if (top && list->size() > top) appendf(out, "  ... %zu more\n", list->size() - top);
    }
}

} // namespace

std::string formatText(const Comparison& c, std::size_t top)
{
    std::string out = sideLine("A", c.a) + sideLine("B", c.b);
    if (c.normalize != Normalize::None)
        appendf(out, "counts normalised by %s (%s)\n", normalizeName(c.normalize),
            c.normalize == Normalize::Duration ? "per second" : "per 1000 instructions");
    if (!c.mismatches.empty()) {
        out += "\nMismatches\n";
        for (const auto& m : c.mismatches)
            appendf(out, "  ! %s\n", m.text.c_str());
    }
    for (const auto& [name, p] : { std::pair { "A", &c.a }, { "B", &c.b } })
        for (const auto& n : p->notes)
            appendf(out, "  note (%s): %s\n", name, n.c_str());
    const auto rows = topItems(c.rows, top);
    rdtBlock(out, rows);
    allocationBlock(out, c, rows);
    tmaBlock(out, rows);
    shareBlock(out, rows, Section::CallEdge,
        "LBR call edges (share of branch entries; delta in points; ratio of counts)", "caller -> callee", false);
    shareBlock(out, rows, Section::HotBranch, "LBR hot branches inside a function", "function", false);
    shareBlock(out, rows, Section::LatencySource, "Load latency by data source (cycles)", "data source", true);
    shareBlock(out, rows, Section::LatencyRegion, "Load latency by memory region (cycles; mem_region, Linux 7.0)",
        "region", true);
    shareBlock(out, rows, Section::LatencyFunction, "Load latency by function (cycles)", "function", true);
    symbolsBlock(out, c, top);
    if (c.rows.empty())
        out += "\nNothing to compare: neither side holds RDT samples, TMA, branches or loads.\n";
    else if (top && rows.size() < c.rows.size())
        appendf(out, "\n(first %zu items per section; --top N for more, --top 0 for all)\n", top);
    return out;
}

} // namespace rdt::compare

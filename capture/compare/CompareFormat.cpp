// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareFormat.h"

#include "core/Csv.h"
#include "core/Units.h"

#include <cmath>
#include <cstdio>
#include <tuple>
#include <utility>

namespace rdt::compare {

namespace {

bool sameItem(const DiffRow& x, const DiffRow& y)
{
    return x.section == y.section && x.item == y.item && x.group == y.group && x.domain == y.domain;
}

std::string number(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string optNumber(const std::optional<double>& v)
{
    return v ? number(*v) : std::string();
}

} // namespace

std::vector<DiffRow> topItems(const std::vector<DiffRow>& rows, std::size_t top)
{
    if (top == 0) return rows;
    std::vector<DiffRow> out;
    std::size_t items = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == 0 || rows[i].section != rows[i - 1].section) items = 0;
        if (i == 0 || !sameItem(rows[i], rows[i - 1])) ++items;
        if (items <= top) out.push_back(rows[i]);
    }
    return out;
}

std::string formatValue(double v, const std::string& unit)
{
    char buf[48];
    if (unit == "bytes") return formatBytes(v);
    if (unit == "B/s") return formatBandwidth(v);
    if (unit == "%" || unit == "points") {
        std::snprintf(buf, sizeof buf, "%.1f %%", v);
        return buf;
    }
    if (unit == "cycles") {
        std::snprintf(buf, sizeof buf, "%.1f", v);
        return buf;
    }
    if (unit == "MiB") {
        std::snprintf(buf, sizeof buf, "%.2f MiB", v);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string formatDelta(double v, const std::string& unit)
{
    if (unit == "%" || unit == "points") {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%+.1f pts", v);
        return buf;
    }
    const std::string s = formatValue(v, unit);
    return v > 0 ? "+" + s : (v == 0 ? "0" : s);
}

std::string formatRatio(std::optional<double> ratio)
{
    if (!ratio) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, *ratio >= 100 ? "x%.0f" : "x%.2f", *ratio);
    return buf;
}

std::string metricLabel(const DiffRow& row)
{
    static const std::pair<const char*, const char*> rdtNames[] = {
        { "occupancy_mean", "Occupancy, mean" },
        { "occupancy_p95", "Occupancy, p95" },
        { "total_bw_mean", "Total bandwidth, mean" },
        { "total_bw_p95", "Total bandwidth, p95" },
        { "local_bw_mean", "Local bandwidth, mean" },
        { "local_bw_p95", "Local bandwidth, p95" },
        { "ways", "Cache ways" },
        { "mib", "Cache MiB" },
        { "percent", "Bandwidth cap" },
        { "share", "Share" },
        { "count", "Count" },
        { "mean", "Latency, mean" },
        { "p99", "Latency, p99" },
    };
    for (const auto& [id, label] : rdtNames)
        if (row.metric == id) return label;
    if (row.metric.rfind("level", 0) == 0) return "TMA level " + row.metric.substr(5) + " share";
    return row.metric;
}

std::string formatCsv(const Comparison& c, std::size_t top)
{
    std::string out = std::string(kCsvHeader) + "\n";
    for (const auto& r : topItems(c.rows, top)) {
        out += std::string(sectionName(r.section)) + "," + csvField(r.item) + "," + csvField(r.group) + ","
            + (r.domain >= 0 ? std::to_string(r.domain) : std::string()) + "," + r.metric + "," + csvField(r.unit) + ","
            + optNumber(r.a) + "," + optNumber(r.b) + "," + optNumber(r.delta()) + "," + optNumber(r.ratio()) + ","
            + optNumber(r.countA) + "," + optNumber(r.countB) + "," + csvField(r.textA) + "," + csvField(r.textB)
            + "\n";
    }
    return out;
}

OutputRule diffOutputRule(DiffForm form, bool force, const std::string& a, const std::string& b)
{
    OutputRule rule;
    rule.force = force;
    rule.inputs = { a, a + "-wal", b, b + "-wal" };
    switch (form) {
    case DiffForm::Text:
        rule.kind = "comparison (text)";
        rule.isOwnKind = [](std::string_view head, const std::string&) {
            return head.substr(0, 3) == "A: " && head.find("\nB: ") != std::string_view::npos;
        };
        break;
    case DiffForm::Csv:
        rule.kind = "comparison (CSV)";
        rule.isOwnKind = [](std::string_view head, const std::string&) { return headStartsWithLine(head, kCsvHeader); };
        break;
    case DiffForm::Json:
        rule.kind = "comparison (JSON)";
        rule.isOwnKind
            = [](std::string_view head, const std::string&) { return headIsJsonFormat(head, "rdtscope-diff"); };
        break;
    }
    return rule;
}

} // namespace rdt::compare

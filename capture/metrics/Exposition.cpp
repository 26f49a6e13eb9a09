// SPDX-License-Identifier: GPL-3.0-or-later
#include "Exposition.h"

#include <charconv>
#include <cmath>

namespace rdt::metrics {
namespace {

void appendNumber(std::string& out, double v)
{
    if (std::isnan(v)) {
        out += "NaN";
    } else if (std::isinf(v)) {
        out += v > 0 ? "+Inf" : "-Inf";
    } else {
        char buf[32];
        // Integral values print without an exponent as long as they are exact (byte counters up to 2^53).
        const auto res = std::abs(v) < 9.007199254740992e15 && v == std::trunc(v)
            ? std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v))
            : std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, res.ptr);
    }
}

std::string escapeHelp(std::string_view text, ExpositionFormat format)
{
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '"' && format == ExpositionFormat::OpenMetrics100)
            out += "\\\"";
        else
            out += c;
    }
    return out;
}

/// Appends `value` escaped as a label value (backslash, double quote, newline); the common case of a value with
/// none of them is one append, without a temporary string.
void appendEscaped(std::string& out, std::string_view value)
{
    // A plain loop: std::string_view::find_first_of calls memchr on the set for every byte of the value.
    std::size_t from = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const char c = value[i];
        if (c != '\\' && c != '"' && c != '\n') continue;
        out.append(value.data() + from, i - from);
        out += c == '\n' ? "\\n" : c == '"' ? "\\\"" : "\\\\";
        from = i + 1;
    }
    out.append(value.data() + from, value.size() - from);
}

/// The `{name="value",...}` block of a point ("" without labels): rendered once per point, shared by its sample
/// and its _created sample.
void appendLabels(std::string& out, const Labels& labels)
{
    if (labels.empty()) return;
    out += '{';
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (i) out += ',';
        out += labels[i].first;
        out += "=\"";
        appendEscaped(out, labels[i].second);
        out += '"';
    }
    out += '}';
}

void appendSample(std::string& out, std::string_view name, std::string_view labels, double value)
{
    out += name;
    out += labels;
    out += ' ';
    appendNumber(out, value);
    out += '\n';
}

const char* typeName(MetricType type)
{
    switch (type) {
    case MetricType::Counter:
        return "counter";
    case MetricType::Gauge:
        break;
    }
    return "gauge";
}

std::string sampleName(const MetricFamily& f)
{
    return f.type == MetricType::Counter ? f.name + "_total" : f.name;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace

std::string escapeLabelValue(std::string_view value)
{
    std::string out;
    out.reserve(value.size());
    appendEscaped(out, value);
    return out;
}

std::string renderExposition(const std::vector<MetricFamily>& families, ExpositionFormat format, bool terminate)
{
    const bool om = format == ExpositionFormat::OpenMetrics100;
    std::string out;
    // One allocation for the whole body at server scale (a megabyte with pod labels): each family's points are
    // sized after its first, whose labels are typical of the family's.
    std::size_t estimate = 64;
    for (const auto& f : families) {
        estimate += 256 + f.help.size();
        if (f.points.empty()) continue;
        std::size_t point = f.name.size() + 40;
        for (const auto& [key, value] : f.points.front().labels)
            point += key.size() + value.size() + 4;
        estimate += f.points.size() * point * (om && f.type == MetricType::Counter ? 2 : 1);
    }
    out.reserve(estimate);
    for (const auto& f : families) {
        // Prometheus 0.0.4 names the family by its sample name (rdtscope_x_total); OpenMetrics by the bare name.
        const std::string family = om ? f.name : sampleName(f);
        out += "# HELP " + family + ' ' + escapeHelp(f.help, format) + '\n';
        out += "# TYPE " + family + ' ' + typeName(f.type) + '\n';
        if (om && !f.unit.empty()) out += "# UNIT " + family + ' ' + f.unit + '\n';
        const std::string name = sampleName(f);
        const std::string created = f.name + "_created";
        const bool withCreated = om && f.type == MetricType::Counter;
        std::string labels;
        for (const auto& p : f.points) {
            labels.clear();
            appendLabels(labels, p.labels);
            appendSample(out, name, labels, p.value);
            if (withCreated && p.createdSeconds) appendSample(out, created, labels, *p.createdSeconds);
        }
    }
    if (om && terminate) out += "# EOF\n";
    return out;
}

ExpositionFormat negotiateFormat(std::string_view accept)
{
    while (!accept.empty()) {
        const auto comma = accept.find(',');
        std::string_view range = accept.substr(0, comma);
        accept = comma == std::string_view::npos ? std::string_view {} : accept.substr(comma + 1);
        const auto semi = range.find(';');
        if (trim(range.substr(0, semi)) != "application/openmetrics-text") continue;
        bool versionOk = true;
        double q = 1.0;
        std::string_view params = semi == std::string_view::npos ? std::string_view {} : range.substr(semi + 1);
        while (!params.empty()) {
            const auto next = params.find(';');
            const std::string_view param = trim(params.substr(0, next));
            params = next == std::string_view::npos ? std::string_view {} : params.substr(next + 1);
            if (param.rfind("version=", 0) == 0) versionOk = param.substr(8) == "1.0.0";
            if (param.rfind("q=", 0) == 0) {
                const std::string_view qs = param.substr(2);
                std::from_chars(qs.data(), qs.data() + qs.size(), q);
            }
        }
        if (versionOk && q > 0) return ExpositionFormat::OpenMetrics100;
    }
    return ExpositionFormat::Prometheus004;
}

const char* contentType(ExpositionFormat format)
{
    return format == ExpositionFormat::OpenMetrics100 ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                                      : "text/plain; version=0.0.4; charset=utf-8";
}

} // namespace rdt::metrics

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

void appendSample(std::string& out, const std::string& name, const Labels& labels, double value)
{
    out += name;
    if (!labels.empty()) {
        out += '{';
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (i) out += ',';
            out += labels[i].first;
            out += "=\"";
            out += escapeLabelValue(labels[i].second);
            out += '"';
        }
        out += '}';
    }
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
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string renderExposition(const std::vector<MetricFamily>& families, ExpositionFormat format, bool terminate)
{
    const bool om = format == ExpositionFormat::OpenMetrics100;
    std::string out;
    out.reserve(families.size() * 256);
    for (const auto& f : families) {
        // Prometheus 0.0.4 names the family by its sample name (rdtscope_x_total); OpenMetrics by the bare name.
        const std::string family = om ? f.name : sampleName(f);
        out += "# HELP " + family + ' ' + escapeHelp(f.help, format) + '\n';
        out += "# TYPE " + family + ' ' + typeName(f.type) + '\n';
        if (om && !f.unit.empty()) out += "# UNIT " + family + ' ' + f.unit + '\n';
        const std::string name = sampleName(f);
        for (const auto& p : f.points) {
            appendSample(out, name, p.labels, p.value);
            if (om && f.type == MetricType::Counter && p.createdSeconds)
                appendSample(out, f.name + "_created", p.labels, *p.createdSeconds);
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

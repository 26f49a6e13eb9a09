// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Prometheus exposition formats: metric families as plain data, rendered either as the Prometheus text
// format 0.0.4 or as OpenMetrics 1.0 text (with # UNIT, _created and # EOF), and the Accept-header negotiation
// between them. One renderer for both formats, so the two outputs cannot drift apart.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdt::metrics {

enum class MetricType { Gauge, Counter };
enum class ExpositionFormat { Prometheus004, OpenMetrics100 };

using Labels = std::vector<std::pair<std::string, std::string>>;

struct MetricPoint {
    Labels labels;
    double value = 0;
    std::optional<double> createdSeconds; ///< counters: when the series started (Unix time), as _created
};

/// One metric family. `name` is the OpenMetrics family name, without `_total` for counters (the renderer adds it);
/// `unit`, when set, must be the name's suffix. (Info metrics are gauges of value 1 named *_info: promtool's
/// linter does not know the OpenMetrics `info` type.)
struct MetricFamily {
    std::string name;
    MetricType type = MetricType::Gauge;
    std::string help;
    std::string unit;
    std::vector<MetricPoint> points;
};

/// Renders families in the given format. Families with no points still get their # HELP and # TYPE lines.
/// Without `terminate`, OpenMetrics output lacks its final "# EOF" (more families are appended after it).
std::string renderExposition(const std::vector<MetricFamily>& families, ExpositionFormat format, bool terminate = true);

/// OpenMetrics 1.0 when the Accept header offers application/openmetrics-text (version 1.0.0 or unversioned,
/// q > 0), the Prometheus text format 0.0.4 otherwise (what Prometheus itself falls back to).
ExpositionFormat negotiateFormat(std::string_view acceptHeader);
/// The Content-Type header for a format.
const char* contentType(ExpositionFormat format);

/// Label value escaping shared by both formats: backslash, double quote and newline.
std::string escapeLabelValue(std::string_view value);

} // namespace rdt::metrics

// SPDX-License-Identifier: GPL-3.0-or-later
#include "GrafanaDashboard.h"

#include "core/BoundedFile.h"
#include "core/Json.h"

namespace rdt::agent {

Result<std::string> loadGrafanaDashboard(const std::string& path)
{
    auto text = readBoundedFile(path, kMaxDashboardBytes, "Grafana dashboard");
    if (!text) return text.error();
    const std::string advice = "give the JSON of a Grafana dashboard (Dashboard settings > JSON Model, or "
                               "share/rdtscope/grafana/rdtscope.json)";
    auto doc = json::parse(*text);
    if (!doc) return makeError("the dashboard " + path + " is not JSON: " + doc.error().message, advice);
    const auto& d = *doc;
    const bool titled = d.is_object() && d.contains("title") && d["title"].is_string();
    const bool laidOut = d.is_object()
        && ((d.contains("panels") && d["panels"].is_array()) || (d.contains("rows") && d["rows"].is_array()));
    if (!titled || !laidOut)
        return makeError("the dashboard " + path
                + " is JSON but no Grafana dashboard (it needs a \"title\" "
                  "string and a \"panels\" array)",
            advice);
    return text;
}

} // namespace rdt::agent

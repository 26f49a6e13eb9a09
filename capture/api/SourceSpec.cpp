// SPDX-License-Identifier: GPL-3.0-or-later
#include "SourceSpec.h"

#include <cerrno>

namespace rdt::api {

const char* sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Auto:
        return "auto";
    case SourceKind::Sim:
        return "sim";
    case SourceKind::SimMsr:
        return "sim-msr";
    case SourceKind::Resctrl:
        return "resctrl";
    case SourceKind::Msr:
        return "msr";
    }
    return "auto";
}

std::string SourceSpec::text() const
{
    std::string s = sourceKindName(kind);
    if (!path.empty()) s += ":" + path;
    return s;
}

const char* sourceSpecForms()
{
    return "auto, sim, sim-msr[:DIR], resctrl[:PATH] or msr";
}

Result<SourceSpec> parseSourceSpec(std::string_view text)
{
    const auto colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    SourceSpec spec;
    bool found = false;
    for (auto kind : { SourceKind::Auto, SourceKind::Sim, SourceKind::SimMsr, SourceKind::Resctrl, SourceKind::Msr })
        if (name == sourceKindName(kind)) {
            spec.kind = kind;
            found = true;
        }
    const std::string shown(text);
    if (!found || name.empty())
        return errnoError(EINVAL, "unknown source '" + shown + "'", std::string("use ") + sourceSpecForms());
    if (colon == std::string_view::npos) return spec;
    if (spec.kind != SourceKind::Resctrl && spec.kind != SourceKind::SimMsr)
        return errnoError(EINVAL, "--source " + std::string(name) + " takes no path ('" + shown + "')",
            "only resctrl:PATH and sim-msr:DIR name a path");
    spec.path = std::string(text.substr(colon + 1));
    if (spec.path.empty())
        return errnoError(EINVAL, "--source " + shown + " needs a path after ':'",
            spec.kind == SourceKind::Resctrl ? "e.g. --source resctrl:/sys/fs/resctrl"
                                             : "e.g. --source sim-msr:/tmp/msr-state");
    return spec;
}

Status checkSimulatorOptions(const SourceSpec& spec, const std::string& scenario, const std::string& preset)
{
    const auto option = [&]() -> std::string {
        if (!scenario.empty() && !preset.empty()) return "--scenario and --preset apply";
        return !scenario.empty() ? "--scenario applies" : "--preset applies";
    };
    switch (spec.kind) {
    case SourceKind::Auto:
    case SourceKind::Sim:
        return {};
    case SourceKind::SimMsr:
        if (!preset.empty())
            return errnoError(EINVAL, "--preset applies to --source sim only",
                "sim-msr simulates the scenario's own machine; pick it with the scenario's machine line");
        return {};
    case SourceKind::Resctrl:
    case SourceKind::Msr:
        if (scenario.empty() && preset.empty()) return {};
        return errnoError(EINVAL,
            option() + " to the simulated machine only, not to --source " + spec.text() + ", which describes itself",
            "use --source sim (--source sim --preset ID for another CPU), or drop the option");
    }
    return {};
}

} // namespace rdt::api

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Telemetry.h"

#include "Sample.h"
#include "SampleCsv.h"
#include "SampleFlags.h"
#include "core/Text.h"
#include "core/Units.h"

#include <charconv>

namespace rdt {

TelemetryEventInfo telemetryEventInfo(std::string_view event)
{
    if (event == "core_energy")
        return { "J", "energy", "rdtscope_core_energy_joules", "joules",
            "Energy the group's cores used in the package (resctrl PERF_PKG_MON core_energy)." };
    if (event == "activity")
        return { "F", "activity", "rdtscope_activity_farads", "farads",
            "Switching activity of the group's cores in the package, in farads (resctrl PERF_PKG_MON activity)." };
    std::string name = "rdtscope_telemetry_";
    for (char c : event)
        name += (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_';
    return { "", "count", std::move(name), "",
        "Events counted for the group in the package (resctrl PERF_PKG_MON " + std::string(event) + ")." };
}

TelemetryValue parseTelemetryValue(std::string_view text)
{
    TelemetryValue out;
    const auto t = trim(text);
    if (t == "Error") {
        out.error = true;
        return out;
    }
    // Only what the kernel prints: digits, optionally '.' and more digits (no sign, exponent or hex).
    const auto dot = t.find('.');
    const auto whole = t.substr(0, dot);
    const auto frac = dot == std::string_view::npos ? std::string_view {} : t.substr(dot + 1);
    auto digitsOnly = [](std::string_view s) {
        for (char c : s)
            if (c < '0' || c > '9') return false;
        return true;
    };
    if (whole.empty() || !digitsOnly(whole) || !digitsOnly(frac) || (dot != std::string_view::npos && frac.empty())) {
        out.unavailable = true;
        return out;
    }
    if (dot == std::string_view::npos) {
        std::uint64_t v = 0;
        auto [p, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), v);
        if (ec != std::errc() || p != whole.data() + whole.size()) {
            out.unavailable = true;
            return out;
        }
        out.value = static_cast<double>(v);
        return out;
    }
    auto v = parseFiniteDouble(t);
    if (!v) {
        out.unavailable = true;
        return out;
    }
    out.value = *v;
    return out;
}

std::string telemetryDomainDir(int package)
{
    return formatString("mon_PERF_PKG_%02d", package);
}

std::string formatTelemetryValue(std::string_view event, double value)
{
    const auto info = telemetryEventInfo(event);
    if (info.unit.empty()) return formatCount(value);
    return formatString("%.3f %s", value, info.unit.c_str());
}

std::string formatTelemetryRate(std::string_view event, double perSecond)
{
    const auto info = telemetryEventInfo(event);
    if (info.quantity == "energy") return formatString("%.2f W", perSecond); // J/s
    if (info.unit.empty()) return formatCount(perSecond) + "/s";
    return formatString("%.3f %s/s", perSecond, info.unit.c_str());
}

std::string telemetryTableHeader()
{
    return formatString("%-28s %7s %-22s %16s %14s %5s\n", "GROUP", "PACKAGE", "EVENT", "VALUE", "RATE", "FLAGS");
}

std::string telemetryTableLine(const std::string& group, int package, const std::string& event, double value,
    double perSecond, std::uint32_t flags)
{
    return formatString("%-28s %7d %-22s %16s %14s %5s\n", displayGroup(group).c_str(), package, event.c_str(),
        formatTelemetryValue(event, value).c_str(), formatTelemetryRate(event, perSecond).c_str(),
        sampleFlagLetters(flags & ~SampleFirst).c_str());
}

} // namespace rdt

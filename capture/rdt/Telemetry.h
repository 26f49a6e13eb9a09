// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Per-group package telemetry (resctrl's PERF_PKG_MON resource, Intel, Linux 7.0): what one mon_PERF_PKG_XX event
// file holds, what each event means and in which unit, and the one parser of its values, shared by the backend,
// the sampler, sessions, `monitor`, the GUI and the metrics endpoint.
//
// The kernel prints an event either as an integer or, for the energy GUID's fixed-point events, as a decimal with
// a fraction ("1234.500000"): core_energy in joules and activity in farads (series "x86,fs/resctrl telemetry
// monitoring", arch/x86/kernel/cpu/resctrl/intel_aet.c: an event with bin_bits > 0 is fixed-point). A read that
// fails reads "Error" or "Unavailable" (kernel Documentation/filesystems/resctrl.rst, "mon_data").

#include <cstdint>
#include <string>
#include <string_view>

namespace rdt {

/// What one event of info/PERF_PKG_MON/mon_features measures.
struct TelemetryEventInfo {
    std::string unit; ///< "J" (core_energy), "F" (activity), "" for integer counts
    std::string quantity; ///< "energy", "activity" or "count": what the per-second rate is (W, F/s, 1/s)
    /// The Prometheus counter family without the `_total` the exposition adds: rdtscope_core_energy_joules,
    /// rdtscope_activity_farads, and rdtscope_telemetry_<event> for integer events (base units; characters a metric
    /// name may not hold become '_').
    std::string metricName;
    std::string metricUnit; ///< "joules", "farads", "" (OpenMetrics # UNIT; the name's suffix)
    std::string help; ///< one line for `# HELP` and tooltips
};

/// The meaning of an event name; unknown names are integer counts (the kernel adds events per GUID).
TelemetryEventInfo telemetryEventInfo(std::string_view event);

/// A parsed mon_PERF_PKG_XX value: the number, or the reason there is none.
struct TelemetryValue {
    double value = 0;
    bool error = false; ///< "Error" (the kernel could not read the telemetry region)
    bool unavailable = false; ///< "Unavailable", or text that is no number (never guessed as 0)
    bool ok() const { return !error && !unavailable; }
};

/// Parses an event file's content: "1234.500000" (fixed point), "5000015" (integer), padded by whitespace.
/// Negative numbers, exponents, hex and empty text are not what the kernel writes: they read unavailable.
TelemetryValue parseTelemetryValue(std::string_view text);

/// "mon_PERF_PKG_01": the directory of a package id in mon_data (the kernel's "%02d" as for mon_L3_XX).
std::string telemetryDomainDir(int package);

/// "1.23 kJ", "56.25 F", "7000021": a cumulative value in its unit for tables; the rate with "/s" for rates
/// ("12.5 W" for energy: joules per second are watts).
std::string formatTelemetryValue(std::string_view event, double value);
std::string formatTelemetryRate(std::string_view event, double perSecond);

/// The telemetry table of `monitor` and `replay` (one formatter for both): a header line and one line per event.
std::string telemetryTableHeader();
std::string telemetryTableLine(const std::string& group, int package, const std::string& event, double value,
    double perSecond, std::uint32_t flags);

} // namespace rdt

// SPDX-License-Identifier: GPL-3.0-or-later
#include "LimboTrace.h"

#include "core/Text.h"
#include "core/Units.h"

#include <charconv>

namespace rdt {

namespace {
/// The number after "<key>=" in `line`, or false.
template <typename T> bool field(std::string_view line, std::string_view key, T& out)
{
    std::size_t at = 0;
    while ((at = line.find(key, at)) != std::string_view::npos) {
        const bool starts = at == 0 || line[at - 1] == ' ';
        const std::size_t value = at + key.size();
        if (starts && value < line.size() && line[value] == '=') {
            const char* b = line.data() + value + 1;
            const char* e = line.data() + line.size();
            auto [end, ec] = std::from_chars(b, e, out);
            return ec == std::errc() && end != b && (end == e || *end == ' ');
        }
        at = value;
    }
    return false;
}
} // namespace

LimboTrace::LimboTrace(Fs& tracefs)
    : m_fs(tracefs)
{ }

std::vector<LimboRmid> LimboTrace::parse(std::string_view trace, std::size_t maxRmids)
{
    std::vector<LimboRmid> out;
    std::size_t start = 0;
    while (start < trace.size()) {
        std::size_t end = trace.find('\n', start);
        if (end == std::string_view::npos) end = trace.size();
        const std::string_view line = trace.substr(start, end - start);
        start = end + 1;
        const auto at = line.find("mon_llc_occupancy_limbo:");
        if (at == std::string_view::npos || line.front() == '#') continue;
        const std::string_view fields = line.substr(at + 24);
        LimboRmid r;
        if (!field(fields, "ctrl_hw_id", r.ctrlHwId) || !field(fields, "mon_hw_id", r.monHwId)
            || !field(fields, "domain_id", r.domain) || !field(fields, "llc_occupancy_bytes", r.occupancyBytes))
            continue;
        bool updated = false;
        for (auto& o : out)
            if (o.monHwId == r.monHwId && o.domain == r.domain) {
                o = r;
                updated = true;
            }
        if (!updated && out.size() < maxRmids) out.push_back(r);
    }
    return out;
}

LimboReport LimboTrace::read() const
{
    LimboReport report;
    if (!m_fs.exists("trace") || !m_fs.isDirectory("events")) {
        report.why = "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing to see what is in limbo)";
        return report;
    }
    const std::string dir = kEventDir;
    if (!m_fs.isDirectory(dir)) {
        report.why = "the tracepoint resctrl/mon_llc_occupancy_limbo is absent (a kernel before it, or without "
                     "tracing)";
        return report;
    }
    auto enabled = m_fs.read(dir + "/enable");
    if (!enabled || trim(*enabled) != "1") {
        report.why = "the tracepoint resctrl/mon_llc_occupancy_limbo is off (echo 1 > /sys/kernel/tracing/" + dir
            + "/enable, then retry to see what is in limbo)";
        return report;
    }
    auto trace = m_fs.read("trace");
    if (!trace) {
        report.why = "cannot read /sys/kernel/tracing/trace: " + trace.error().message;
        return report;
    }
    report.readable = true;
    report.rmids = parse(*trace);
    return report;
}

std::string LimboReport::advice() const
{
    if (!readable) return "RMIDs in limbo cannot be listed: " + why;
    if (rmids.empty()) return "the tracepoint mon_llc_occupancy_limbo recorded no RMID in limbo yet";
    std::string t = "RMIDs in limbo (tracepoint mon_llc_occupancy_limbo):";
    for (std::size_t i = 0; i < rmids.size(); ++i) {
        const auto& r = rmids[i];
        t += std::string(i ? ";" : "") + " RMID " + std::to_string(r.monHwId) + " (CLOS " + std::to_string(r.ctrlHwId)
            + ") in domain " + std::to_string(r.domain) + " holds " + formatBytes(double(r.occupancyBytes));
    }
    return t;
}

} // namespace rdt

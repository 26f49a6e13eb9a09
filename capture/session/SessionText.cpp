// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionText.h"

#include "core/Units.h"

#include <cinttypes>
#include <ctime>
#include <map>

namespace rdt::session {

namespace {

double secondsSince(std::uint64_t t, std::uint64_t origin)
{
    return t >= origin ? static_cast<double>(t - origin) * 1e-9 : -static_cast<double>(origin - t) * 1e-9;
}

std::string fmt(const char* format, auto... args)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, format, args...);
    return buf;
}

std::string wallTime(std::uint64_t ns)
{
    if (ns == 0)
        return "unknown";
    const std::time_t t = static_cast<std::time_t>(ns / 1000000000ull);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

std::string jsonNumber(double v)
{
    if (!(v == v) || v > 1e300 || v < -1e300)
        return "null";
    return fmt("%.17g", v);
}

} // namespace

std::string displayGroup(const std::string& path) { return path.empty() ? "default" : path; }

std::string sampleCsvLine(const RdtSample& s, std::uint64_t originNs)
{
    std::string g = displayGroup(s.group);
    if (g.find_first_of(",\"\n") != std::string::npos) {
        std::string q = "\"";
        for (char c : g)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        g = q + "\"";
    }
    return fmt("%.3f,%s,%d,%" PRIu64 ",%.0f,%.0f\n", secondsSince(s.timeNs, originNs), g.c_str(), s.domain,
        s.occupancyBytes, s.mbmTotalBps, s.mbmLocalBps);
}

std::string sampleTableHeader()
{
    return fmt("%9s  %-24s %6s %12s %14s %14s %14s\n", "time_s", "group", "domain", "llc_occ", "mbm_total",
        "mbm_local", "mbm_remote");
}

std::string sampleTableLine(const RdtSample& s, std::uint64_t originNs)
{
    std::string flags;
    if (s.flags & (SampleOccupancyError | SampleMbmError))
        flags += " error";
    if (s.flags & (SampleOccupancyUnavailable | SampleMbmUnavailable))
        flags += " unavailable";
    if (s.flags & SampleWrapped)
        flags += " wrapped";
    if (s.flags & SampleCounterReset)
        flags += " reset";
    return fmt("%9.3f  %-24s %6d %12s %14s %14s %14s%s\n", secondsSince(s.timeNs, originNs),
        displayGroup(s.group).c_str(), s.domain, formatBytes(static_cast<double>(s.occupancyBytes)).c_str(),
        formatBandwidth(s.mbmTotalBps).c_str(), formatBandwidth(s.mbmLocalBps).c_str(),
        formatBandwidth(s.mbmRemoteBps()).c_str(), flags.c_str());
}

std::string formatSummary(SessionReader& r)
{
    const SessionMeta& m = r.meta();
    std::string out;
    out += "session:     " + r.path() + (r.closedCleanly() ? "" : "  (not closed cleanly)") + "\n";
    out += "format:      rdtscope session v" + std::to_string(r.schemaVersion()) + "\n";
    out += "recorded:    " + wallTime(m.startWallNs) + " on " + (m.host.empty() ? "unknown host" : m.host) + "\n";
    if (!m.kernel.empty())
        out += "kernel:      " + m.kernel + "\n";
    const std::string label = r.metaValue("simulated").empty()
        ? "  [simulated or measured: unknown, the metadata is unreadable]"
        : (m.simulated ? "  [SIMULATED data, not measured on hardware]" : "  [hardware]");
    out += "source:      " + (m.source.empty() ? std::string("unknown") : m.source) + label + "\n";
    if (!m.scenario.empty())
        out += "scenario:    " + m.scenario + "\n";
    out += "machine:     " + (r.machine().description.empty() ? std::string("(not recorded)") : r.machine().description)
        + "\n";
    const double duration = r.lastTimeNs() > r.firstTimeNs() ? secondsSince(r.lastTimeNs(), r.firstTimeNs()) : 0.0;
    out += fmt("duration:    %.3f s%s (samples from %.3f s to %.3f s)\n", duration,
        m.timeIsSimulated ? " of simulated time" : "", secondsSince(r.firstTimeNs(), r.originNs()),
        secondsSince(r.lastTimeNs(), r.originNs()));
    if (m.intervalNs)
        out += fmt("interval:    %.0f ms\n", static_cast<double>(m.intervalNs) * 1e-6);
    out += fmt("samples:     %" PRIu64 "\n", r.sampleCount());
    out += fmt("groups:      %zu\n", r.groups().size());
    for (const auto& g : r.groups())
        out += fmt("  %-28s %10" PRIu64 " samples  %.3f s .. %.3f s\n", displayGroup(g.path).c_str(), g.samples,
            secondsSince(g.firstNs, r.originNs()), secondsSince(g.lastNs, r.originNs()));
    std::size_t failed = 0, initial = 0;
    for (const auto& a : r.allocations()) {
        failed += a.ok ? 0u : 1u;
        initial += a.who == "initial" ? 1u : 0u;
    }
    out += fmt("allocation changes: %zu (%zu rejected), plus %zu initial values\n", r.allocations().size() - initial,
        failed, initial);
    constexpr std::size_t kListed = 40;
    std::size_t listed = 0;
    for (const auto& a : r.allocations()) {
        if (a.who == "initial")
            continue;
        if (++listed > kListed)
            break;
        out += fmt("  %9.3f s  %-8s %-16s %s:%d %s -> %s%s%s\n", secondsSince(a.timeNs, r.originNs()), a.who.c_str(),
            displayGroup(a.group).c_str(), a.resource.c_str(), a.domain, a.oldValue.empty() ? "-" : a.oldValue.c_str(),
            a.newValue.c_str(), a.ok ? "" : "  REJECTED: ", a.ok ? "" : a.message.c_str());
    }
    if (listed > kListed)
        out += fmt("  ... %zu more (rdtscope-cli export --json lists them all)\n",
            r.allocations().size() - initial - kListed);
    out += fmt("membership changes: %zu\n", r.memberships().size());
    out += fmt("markers:     %zu\n", r.markers().size());
    for (const auto& mk : r.markers())
        out += fmt("  %9.3f s  [%s] %s\n", secondsSince(mk.timeNs, r.originNs()), mk.kind.c_str(), mk.text.c_str());
    if (const std::string d = r.metaValue("dropped_items"); !d.empty() && d != "0")
        out += "dropped:     " + d + " items were dropped while recording (the recorder fell behind)\n";
    if (!r.closedCleanly() && !r.stopReason().empty())
        out += "stopped:     " + r.stopReason() + "\n";
    else if (!r.stopReason().empty())
        out += "stop reason: " + r.stopReason() + "\n";
    if (!r.issues().empty()) {
        out += "problems:\n";
        for (const auto& i : r.issues())
            out += "  - " + i + "\n";
    }
    return out;
}

Status exportCsv(SessionReader& r, std::uint64_t fromNs, std::uint64_t toNs, std::FILE* out)
{
    std::fputs(kSampleCsvHeader, out);
    std::fputc('\n', out);
    const std::uint64_t origin = r.originNs();
    return r.forEachSample(fromNs, toNs, [&](const RdtSample& s) {
        std::fputs(sampleCsvLine(s, origin).c_str(), out);
        return true;
    });
}

std::string jsonString(const std::string& s)
{
    std::string o = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            o += "\\\"";
            break;
        case '\\':
            o += "\\\\";
            break;
        case '\n':
            o += "\\n";
            break;
        case '\t':
            o += "\\t";
            break;
        case '\r':
            o += "\\r";
            break;
        default:
            if (c < 0x20)
                o += fmt("\\u%04x", static_cast<unsigned>(c));
            else
                o += static_cast<char>(c);
        }
    }
    return o + "\"";
}

Status exportJson(SessionReader& r, std::uint64_t fromNs, std::uint64_t toNs, std::FILE* out)
{
    const std::uint64_t origin = r.originNs();
    auto inRange = [&](std::uint64_t t) { return t >= fromNs && t < toNs; };
    std::fputs("{\n\"format\": \"rdtscope-session-export\",\n\"meta\": {", out);
    bool first = true;
    for (const auto& [k, v] : r.metaTable()) {
        std::fprintf(out, "%s\n  %s: %s", first ? "" : ",", jsonString(k).c_str(), jsonString(v).c_str());
        first = false;
    }
    std::fprintf(out, "\n},\n\"simulated\": %s,\n", r.meta().simulated ? "true" : "false");
    std::fprintf(out, "\"machine\": {\"description\": %s, \"topology\": %s, \"cpuid_json\": %s},\n",
        jsonString(r.machine().description).c_str(), jsonString(r.machine().topology).c_str(),
        jsonString(r.machine().cpuidJson).c_str());
    std::fputs("\"groups\": [", out);
    first = true;
    for (const auto& g : r.groups()) {
        std::fprintf(out, "%s\n  {\"path\": %s, \"samples\": %" PRIu64 "}", first ? "" : ",", jsonString(g.path).c_str(),
            g.samples);
        first = false;
    }
    std::fputs("\n],\n\"allocations\": [", out);
    first = true;
    for (const auto& a : r.allocations()) {
        if (!inRange(a.timeNs))
            continue;
        std::fprintf(out,
            "%s\n  {\"time_s\": %s, \"who\": %s, \"group\": %s, \"resource\": %s, \"domain\": %d, \"old\": %s, "
            "\"new\": %s, \"ok\": %s, \"message\": %s}",
            first ? "" : ",", jsonNumber(secondsSince(a.timeNs, origin)).c_str(), jsonString(a.who).c_str(),
            jsonString(a.group).c_str(), jsonString(a.resource).c_str(), a.domain, jsonString(a.oldValue).c_str(),
            jsonString(a.newValue).c_str(), a.ok ? "true" : "false", jsonString(a.message).c_str());
        first = false;
    }
    std::fputs("\n],\n\"memberships\": [", out);
    first = true;
    for (const auto& m : r.memberships()) {
        if (!inRange(m.timeNs))
            continue;
        std::fprintf(out, "%s\n  {\"time_s\": %s, \"group\": %s, \"tasks\": %s, \"cpus\": %s}", first ? "" : ",",
            jsonNumber(secondsSince(m.timeNs, origin)).c_str(), jsonString(m.group).c_str(),
            jsonString(m.tasks).c_str(), jsonString(m.cpus).c_str());
        first = false;
    }
    std::fputs("\n],\n\"markers\": [", out);
    first = true;
    for (const auto& m : r.markers()) {
        if (!inRange(m.timeNs))
            continue;
        std::fprintf(out, "%s\n  {\"time_s\": %s, \"kind\": %s, \"text\": %s}", first ? "" : ",",
            jsonNumber(secondsSince(m.timeNs, origin)).c_str(), jsonString(m.kind).c_str(), jsonString(m.text).c_str());
        first = false;
    }
    std::fputs("\n],\n\"samples\": [", out);
    first = true;
    Status s = r.forEachSample(fromNs, toNs, [&](const RdtSample& smp) {
        std::fprintf(out,
            "%s\n  {\"time_s\": %s, \"group\": %s, \"domain\": %d, \"llc_occupancy_bytes\": %" PRIu64
            ", \"mbm_total_bytes\": %" PRIu64 ", \"mbm_local_bytes\": %" PRIu64
            ", \"mbm_total_bps\": %s, \"mbm_local_bps\": %s, \"flags\": %u}",
            first ? "" : ",", jsonNumber(secondsSince(smp.timeNs, origin)).c_str(), jsonString(smp.group).c_str(),
            smp.domain, smp.occupancyBytes, smp.mbmTotalBytes, smp.mbmLocalBytes, jsonNumber(smp.mbmTotalBps).c_str(),
            jsonNumber(smp.mbmLocalBps).c_str(), smp.flags);
        first = false;
        return true;
    });
    std::fputs("\n],\n\"tma\": [", out);
    first = true;
    if (auto rows = r.tma(fromNs, toNs)) {
        for (const auto& t : *rows) {
            std::fprintf(out, "%s\n  {\"start_s\": %s, \"end_s\": %s, \"scope\": %s, \"level\": %d, \"metric\": %s, "
                              "\"value\": %s}",
                first ? "" : ",", jsonNumber(secondsSince(t.startNs, origin)).c_str(),
                jsonNumber(secondsSince(t.endNs, origin)).c_str(), jsonString(t.scope).c_str(), t.level,
                jsonString(t.metric).c_str(), jsonNumber(t.value).c_str());
            first = false;
        }
    }
    std::fputs("\n],\n\"issues\": [", out);
    first = true;
    for (const auto& i : r.issues()) {
        std::fprintf(out, "%s\n  %s", first ? "" : ",", jsonString(i).c_str());
        first = false;
    }
    std::fputs("\n]\n}\n", out);
    return s;
}

} // namespace rdt::session

// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionText.h"

#include "core/Json.h"
#include "core/Text.h"
#include "core/Units.h"

#include <cinttypes>
#include <ctime>
#include <limits>
#include <map>

namespace rdt::session {

namespace {

double secondsSince(std::uint64_t t, std::uint64_t origin)
{
    return t >= origin ? static_cast<double>(t - origin) * 1e-9 : -static_cast<double>(origin - t) * 1e-9;
}

std::string fmt(const char* format, auto... args)
{
    return formatString(format, args...); // any length, no fixed buffer
}

std::string wallTime(std::uint64_t ns)
{
    if (ns == 0) return "unknown";
    const std::time_t t = static_cast<std::time_t>(ns / 1000000000ull);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

} // namespace

std::string sampleCsvLine(const RdtSample& s, std::uint64_t originNs)
{
    // An unknown reading is an empty field (Sample.h's rules), never 0.
    constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    return rdt::sampleCsvLine({ secondsSince(s.timeNs, originNs), s.group, s.domain,
        (s.flags & kOccupancyUnknown) ? std::nullopt : std::optional<std::uint64_t>(s.occupancyBytes),
        (s.flags & kMbmTotalRateUnknown) ? kUnknown : s.mbmTotalBps,
        (s.flags & kMbmLocalRateUnknown) ? kUnknown : s.mbmLocalBps, {} });
}

std::string sampleTableHeader()
{
    return fmt("%9s  %-24s %6s %12s %14s %14s %14s\n", "time_s", "group", "domain", "llc_occ", "mbm_total", "mbm_local",
        "mbm_remote");
}

std::string sampleTableLine(const RdtSample& s, std::uint64_t originNs)
{
    std::string flags;
    if (s.flags & (SampleOccupancyError | SampleMbmError | SampleMbmLocalError)) flags += " error";
    if (s.flags & (SampleOccupancyUnavailable | SampleMbmUnavailable | SampleMbmLocalUnavailable))
        flags += " unavailable";
    if (s.flags & (SampleMbmUnassigned | SampleMbmLocalUnassigned)) flags += " unassigned";
    if (s.flags & SampleWrapped) flags += " wrapped";
    if (s.flags & SampleCounterReset) flags += " reset";
    // An unknown value is "-", never a number (Sample.h's rules decide which).
    const auto cell
        = [&](std::uint32_t unknown, const std::string& text) { return (s.flags & unknown) ? std::string("-") : text; };
    return fmt("%9.3f  %-24s %6d %12s %14s %14s %14s%s\n", secondsSince(s.timeNs, originNs),
        displayGroup(s.group).c_str(), s.domain,
        cell(kOccupancyUnknown, formatBytes(static_cast<double>(s.occupancyBytes))).c_str(),
        cell(kMbmTotalRateUnknown, formatBandwidth(s.mbmTotalBps)).c_str(),
        cell(kMbmLocalRateUnknown, formatBandwidth(s.mbmLocalBps)).c_str(),
        cell(kMbmRemoteRateUnknown, formatBandwidth(s.mbmRemoteBps())).c_str(), flags.c_str());
}

std::string formatSummary(SessionReader& r)
{
    const SessionMeta& m = r.meta();
    std::string out;
    out += "session:     " + r.path() + (r.closedCleanly() ? "" : "  (not closed cleanly)") + "\n";
    out += "format:      rdtscope session v" + std::to_string(r.schemaVersion()) + "\n";
    out += "recorded:    " + wallTime(m.startWallNs) + " on " + (m.host.empty() ? "unknown host" : m.host) + "\n";
    if (!m.kernel.empty()) out += "kernel:      " + m.kernel + "\n";
    const std::string label = r.metaValue("simulated").empty()
        ? "  [simulated or measured: unknown, the metadata is unreadable]"
        : (m.simulated ? "  [SIMULATED data, not measured on hardware]" : "  [hardware]");
    out += "source:      " + (m.source.empty() ? std::string("unknown") : m.source) + label + "\n";
    if (!m.scenario.empty()) out += "scenario:    " + m.scenario + "\n";
    out += "machine:     " + (r.machine().description.empty() ? std::string("(not recorded)") : r.machine().description)
        + "\n";
    const double duration = r.lastTimeNs() > r.firstTimeNs() ? secondsSince(r.lastTimeNs(), r.firstTimeNs()) : 0.0;
    out += fmt("duration:    %.3f s%s (samples from %.3f s to %.3f s)\n", duration,
        m.timeIsSimulated ? " of simulated time" : "", secondsSince(r.firstTimeNs(), r.originNs()),
        secondsSince(r.lastTimeNs(), r.originNs()));
    if (m.intervalNs) out += fmt("interval:    %.0f ms\n", static_cast<double>(m.intervalNs) * 1e-6);
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
        if (a.who == "initial") continue;
        if (++listed > kListed) break;
        out += fmt("  %9.3f s  %-8s %-16s %s:%d %s -> %s%s%s\n", secondsSince(a.timeNs, r.originNs()), a.who.c_str(),
            displayGroup(a.group).c_str(), a.resource.c_str(), a.domain, a.oldValue.empty() ? "-" : a.oldValue.c_str(),
            a.newValue.c_str(), a.ok ? "" : "  REJECTED: ", a.ok ? "" : a.message.c_str());
    }
    if (listed > kListed)
        out += fmt(
            "  ... %zu more (rdtscope-cli export --json lists them all)\n", r.allocations().size() - initial - kListed);
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

namespace {

// `export --json` streams: samples are written as they are read, never held as one document. Each top-level
// member starts a line; array elements are one compact object per line (grep-able, and `jq -c` reads the same).
class JsonStream {
public:
    explicit JsonStream(std::FILE* out)
        : m_out(out)
    { }
    void member(const char* key, const json::Ordered& value, int indent = -1)
    {
        name(key);
        put(indent < 0 ? json::dump(value) : value.dump(indent, ' ', false, json::Ordered::error_handler_t::replace));
    }
    void beginArray(const char* key)
    {
        name(key);
        put("[");
        m_firstElement = true;
    }
    void element(const json::Ordered& value)
    {
        put(m_firstElement ? "\n  " : ",\n  ");
        m_firstElement = false;
        put(json::dump(value));
    }
    void endArray() { put("\n]"); }
    void end() { put("\n}\n"); }

private:
    void name(const char* key)
    {
        put(m_firstMember ? "{\n" : ",\n");
        m_firstMember = false;
        put(json::dump(key) + ": ");
    }
    void put(const std::string& text) { std::fwrite(text.data(), 1, text.size(), m_out); }

    std::FILE* m_out;
    bool m_firstMember = true;
    bool m_firstElement = true;
};

} // namespace

Status exportJson(SessionReader& r, std::uint64_t fromNs, std::uint64_t toNs, std::FILE* out)
{
    const std::uint64_t origin = r.originNs();
    auto inRange = [&](std::uint64_t t) { return t >= fromNs && t < toNs; };
    auto seconds = [&](std::uint64_t t) { return json::number(secondsSince(t, origin)); };
    JsonStream doc(out);
    doc.member("format", "rdtscope-session-export");
    json::Ordered meta = json::Ordered::object();
    for (const auto& [k, v] : r.metaTable())
        meta[k] = v;
    doc.member("meta", meta, 2);
    doc.member("simulated", r.meta().simulated);
    doc.member("machine",
        { { "description", r.machine().description }, { "topology", r.machine().topology },
            { "cpuid_json", r.machine().cpuidJson } });
    doc.beginArray("groups");
    for (const auto& g : r.groups())
        doc.element({ { "path", g.path }, { "samples", g.samples } });
    doc.endArray();
    doc.beginArray("allocations");
    for (const auto& a : r.allocations())
        if (inRange(a.timeNs))
            doc.element({ { "time_s", seconds(a.timeNs) }, { "who", a.who }, { "group", a.group },
                { "resource", a.resource }, { "domain", a.domain }, { "old", a.oldValue }, { "new", a.newValue },
                { "ok", a.ok }, { "message", a.message } });
    doc.endArray();
    doc.beginArray("memberships");
    for (const auto& m : r.memberships())
        if (inRange(m.timeNs))
            doc.element(
                { { "time_s", seconds(m.timeNs) }, { "group", m.group }, { "tasks", m.tasks }, { "cpus", m.cpus } });
    doc.endArray();
    doc.beginArray("markers");
    for (const auto& m : r.markers())
        if (inRange(m.timeNs)) doc.element({ { "time_s", seconds(m.timeNs) }, { "kind", m.kind }, { "text", m.text } });
    doc.endArray();
    doc.beginArray("samples");
    Status s = r.forEachSample(fromNs, toNs, [&](const RdtSample& smp) {
        doc.element({ { "time_s", seconds(smp.timeNs) }, { "group", smp.group }, { "domain", smp.domain },
            { "llc_occupancy_bytes", smp.occupancyBytes }, { "mbm_total_bytes", smp.mbmTotalBytes },
            { "mbm_local_bytes", smp.mbmLocalBytes }, { "mbm_total_bps", json::number(smp.mbmTotalBps) },
            { "mbm_local_bps", json::number(smp.mbmLocalBps) }, { "flags", smp.flags } });
        return true;
    });
    doc.endArray();
    doc.beginArray("tma");
    if (auto rows = r.tma(fromNs, toNs))
        for (const auto& t : *rows)
            doc.element({ { "start_s", seconds(t.startNs) }, { "end_s", seconds(t.endNs) }, { "scope", t.scope },
                { "level", t.level }, { "metric", t.metric }, { "value", json::number(t.value) } });
    doc.endArray();
    doc.member("issues", r.issues(), 2);
    doc.end();
    return s;
}

OutputRule exportOutputRule(bool json, bool force, const std::string& session)
{
    OutputRule rule;
    rule.kind = json ? "JSON session export" : "CSV session export";
    rule.isOwnKind = json
        ? [](std::string_view head, const std::string&) { return headIsJsonFormat(head, "rdtscope-session-export"); }
        : [](std::string_view head, const std::string&) { return headStartsWithLine(head, kSampleCsvHeader); };
    rule.force = force;
    rule.inputs = { session, session + "-wal" };
    return rule;
}

} // namespace rdt::session
